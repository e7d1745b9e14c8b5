// "Did this HTTP response fail?" has two answers, each right for its use, and they differ on 404:
// - the answer as the client got it (a message's token, a caption): every 4xx and 5xx is a failed
//   answer, 404 Not Found included, as kubectl prints `Error from server (NotFound)`;
// - what went wrong in the flow (the timeline's error markers, the story's failed-request milestone):
//   404 is left out, because it is how clients learn that something is absent in the normal flow (the
//   kubelet's lease get-or-create, the garbage collector's owner check, a get after a delete).

/** A failed answer as the client sees it: status ≥ 400. */
export function isFailedStatus(status: number): boolean {
  return status >= 400;
}

/** A failure of the flow: a failed answer other than 404 Not Found. */
export function isFlowFailure(status: number): boolean {
  return isFailedStatus(status) && status !== 404;
}
