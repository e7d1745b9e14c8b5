// The person at the keyboard: the component that sends what kubectl and etcdctl would send on their
// behalf. User commands are the only messages with no cause; everything else in the trace descends from
// one of them or from a timer. Replies are kept so the worker can show command output.

import { Component, type Message } from '../engine/index.ts';
import type { MessageKind, MessageMap } from '../messages/index.ts';

export const userComponentName = 'user';

export interface UserReply {
  /** The id of the request this answers. */
  readonly requestId: number;
  readonly message: Message;
}

export class User extends Component {
  private readonly replies: UserReply[] = [];
  private readonly commands = new Map<number, (message: Message) => void>();

  constructor() {
    super(userComponentName);
  }

  /** Sends a request as the user; it is the root of a cause chain. */
  request<K extends MessageKind>(to: string, kind: K, payload: MessageMap[K]): Message<MessageMap[K]> {
    return this.send(to, kind, payload, { cause: null, background: false });
  }

  /**
   * Sends a command to itself as a user action (cause null); `handler` runs when it is delivered, so
   * whatever the command does is caused by it. Faults use this.
   */
  command<K extends MessageKind>(kind: K, payload: MessageMap[K], handler: (message: Message<MessageMap[K]>) => void): Message<MessageMap[K]> {
    const message = this.send(this.name, kind, payload, { cause: null, background: false });
    this.commands.set(message.id, handler as (message: Message) => void);
    return message;
  }

  /** Sends a request on behalf of the command being delivered (its cause is that command). */
  requestFromCommand<K extends MessageKind>(to: string, kind: K, payload: MessageMap[K]): Message<MessageMap[K]> {
    return this.send(to, kind, payload);
  }

  receive(message: Message): void {
    const command = this.commands.get(message.id);
    if (command) {
      this.commands.delete(message.id);
      command(message);
      return;
    }
    if (message.replyTo !== null) this.replies.push({ requestId: message.replyTo, message });
  }

  /** Replies received so far, oldest first. */
  received(): readonly UserReply[] {
    return this.replies;
  }
}
