// One delivered message as a token on its link. Its position is a pure function of the playhead: at
// virtual time t it sits at flight progress (t − sentAt)/(deliverAt − sentAt) between the sender's and the
// receiver's borders, drawn only while in flight or resting at its arrival. Motion values carry t to the
// DOM, so the token moves without React rendering; `data-phase` mirrors the flight phase for tests.

import { motion, useMotionValueEvent, useTransform } from 'motion/react';
import { memo, useRef, type KeyboardEvent } from 'react';
import type { TraceRecord } from '../../protocol/index.ts';
import { flightPhase, flightProgress, isDrawn } from '../playback/flight.ts';
import { usePlayhead } from '../playback/PlayheadProvider.tsx';
import { describeMessage, isResponse, messageFamily } from './message-kind.ts';

interface MessageTokenProps {
  readonly record: TraceRecord;
  readonly fromX: number;
  readonly fromY: number;
  readonly toX: number;
  readonly toY: number;
  readonly selected: boolean;
  readonly onSelect: (id: number) => void;
}

export const MessageToken = memo(function MessageToken({ record, fromX, fromY, toX, toY, selected, onSelect }: MessageTokenProps) {
  const time = usePlayhead();
  const ref = useRef<SVGGElement>(null);
  const x = useTransform(time, (t) => fromX + (toX - fromX) * flightProgress(record, t));
  const y = useTransform(time, (t) => fromY + (toY - fromY) * flightProgress(record, t));
  const visibility = useTransform(time, (t) => (isDrawn(flightPhase(record, t)) ? 'visible' : 'hidden'));
  useMotionValueEvent(time, 'change', (t) => {
    const phase = flightPhase(record, t);
    if (ref.current && ref.current.dataset.phase !== phase) ref.current.dataset.phase = phase;
  });
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      onSelect(record.id);
    }
  };
  const family = messageFamily(record.kind);
  return (
    <motion.g
      ref={ref}
      className={`token token--${family}${isResponse(record) ? ' token--response' : ''}${selected ? ' token--selected' : ''}`}
      style={{ x, y, visibility }}
      data-testid="token"
      data-kind={record.kind}
      data-from={record.from}
      data-to={record.to}
      data-message-id={record.id}
      data-phase={flightPhase(record, time.get())}
      role="button"
      tabIndex={0}
      aria-label={describeMessage(record)}
      aria-pressed={selected}
      onClick={(event) => {
        event.stopPropagation();
        onSelect(record.id);
      }}
      onKeyDown={onKeyDown}
    >
      <circle className="token-dot" r={7} />
      <text className="token-label" y={-12} textAnchor="middle">{record.kind}</text>
    </motion.g>
  );
});
