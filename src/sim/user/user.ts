// The person at the keyboard: the component that sends what kubectl and etcdctl would send on their
// behalf. User commands are the only messages with no cause; everything else in the trace descends from
// one of them or from a timer. Replies are kept so the worker can show command output.

import { Component, type Message } from '../engine/index.ts';

export const userComponentName = 'user';

export interface UserReply {
  /** The id of the request this answers. */
  readonly requestId: number;
  readonly message: Message;
}

export class User extends Component {
  private readonly replies: UserReply[] = [];

  constructor() {
    super(userComponentName);
  }

  /** Sends a request as the user; it is the root of a cause chain. */
  request<P>(to: string, kind: string, payload: P): Message<P> {
    return this.send(to, kind, payload, { cause: null, background: false });
  }

  receive(message: Message): void {
    if (message.replyTo !== null) this.replies.push({ requestId: message.replyTo, message });
  }

  /** Replies received so far, oldest first. */
  received(): readonly UserReply[] {
    return this.replies;
  }
}
