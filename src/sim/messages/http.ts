// The HTTP messages between kube-apiserver and its clients (and between kube-apiserver and a kubelet's
// server): a request, its response, and on a watch or a streamed body the events and chunks that follow.

import type { HttpCancel, HttpRequest, HttpResponse, HttpStreamData, HttpWatchEnd, HttpWatchEvent } from '../wire/http.ts';

export interface HttpMessages {
  'http.request': HttpRequest;
  'http.response': HttpResponse;
  'http.watchEvent': HttpWatchEvent;
  'http.watchEnd': HttpWatchEnd;
  'http.cancel': HttpCancel;
  'http.streamData': HttpStreamData;
}
