import { describe, expect, it } from 'vitest';
import {
  forbiddenMessage, isStatusError, newAlreadyExists, newAuthorizationForbidden, newBadRequest, newConflict,
  newContinueExpired, newDeletePreconditionConflict, newForbidden, newGenerateNameConflict, newGenericServerResponse, newInternalError, newInvalid,
  newMethodNotSupported, newNotFound, newOptimisticLockConflict, newServerTimeout, newTooLargeResourceVersion,
  newTooManyRequests, newTooOldResourceVersion, newUnsupportedMediaType, reasonForError, successStatus, StatusError,
} from './errors.ts';
import { FieldPath, fieldError } from './field.ts';

const pods = { group: '', resource: 'pods' };
const deployments = { group: 'apps', resource: 'deployments' };

describe('Status errors', () => {
  it('serializes NotFound exactly as semantics.md D.6 shows AlreadyExists', () => {
    expect(JSON.stringify(newAlreadyExists(pods, 'nginx').status)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"nginx\\" already exists","reason":"AlreadyExists","details":{"name":"nginx","kind":"pods"},"code":409}');
    expect(JSON.stringify(newNotFound(deployments, 'nginx').status)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"nginx\\" not found","reason":"NotFound","details":{"name":"nginx","group":"apps","kind":"deployments"},"code":404}');
  });

  it('is a thrown Error whose message is the Status message', () => {
    const err = newNotFound(pods, 'x');
    expect(err).toBeInstanceOf(Error);
    expect(isStatusError(err)).toBe(true);
    expect(err.message).toBe('pods "x" not found');
    expect(err.code).toBe(404);
    expect(reasonForError(err)).toBe('NotFound');
    expect(reasonForError(new Error('x'))).toBe('');
  });

  it('words the registry conflict exactly', () => {
    const err = newOptimisticLockConflict(deployments, 'nginx');
    expect(err.code).toBe(409);
    expect(err.reason).toBe('Conflict');
    expect(err.message).toBe('Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes to the latest version and try again');
    expect(newConflict(pods, 'x', 'boom').status.details).toEqual({ name: 'x', kind: 'pods' });
  });

  it('names the Kind in delete precondition conflicts, as rest.BeforeDelete does', () => {
    expect(newDeletePreconditionConflict({ group: '', kind: 'Pod' }, 'x', 'UID', 'a', 'b').message).toBe(
      'Operation cannot be fulfilled on Pod "x": the UID in the precondition (a) does not match the UID in record (b). The object might have been deleted and then recreated');
    expect(newDeletePreconditionConflict({ group: 'apps', kind: 'Deployment' }, 'x', 'ResourceVersion', '5', '7').message).toBe(
      'Operation cannot be fulfilled on Deployment.apps "x": the ResourceVersion in the precondition (5) does not match the ResourceVersion in record (7). The object might have been modified');
  });

  it('adds retryAfterSeconds to generateName conflicts', () => {
    const s = newGenerateNameConflict(pods, 'nginx-abcde', 1).status;
    expect(s.message).toBe('pods "nginx-abcde" already exists, the server was not able to generate a unique name for the object');
    expect(s.details).toEqual({ name: 'nginx-abcde', kind: 'pods', retryAfterSeconds: 1 });
  });

  describe('Invalid', () => {
    // Messages from apimachinery pkg/api/errors/errors_test.go TestNewInvalid.
    it.each([
      [fieldError.duplicate(FieldPath.of('field[0].name'), 'bar'), 'Kind "name" is invalid: field[0].name: Duplicate value: "bar"'],
      [fieldError.invalid(FieldPath.of('field[0].name'), 'bar', 'detail'), 'Kind "name" is invalid: field[0].name: Invalid value: "bar": detail'],
      [fieldError.notFound(FieldPath.of('field[0].name'), 'bar'), 'Kind "name" is invalid: field[0].name: Not found: "bar"'],
      [fieldError.notSupported(FieldPath.of('field[0].name'), 'bar', []), 'Kind "name" is invalid: field[0].name: Unsupported value: "bar"'],
      [fieldError.required(FieldPath.of('field[0].name')), 'Kind "name" is invalid: field[0].name: Required value'],
    ])('%# → %s', (err, message) => {
      const s = newInvalid({ group: '', kind: 'Kind' }, 'name', [err]).status;
      expect(s.message).toBe(message);
      expect(s.code).toBe(422);
      expect(s.reason).toBe('Invalid');
    });

    it('has no field part without errors', () => {
      expect(newInvalid({ group: '', kind: 'Kind' }, 'name', []).message).toBe('Kind "name" is invalid');
    });

    it('aggregates several errors with the Kind (not the resource) in details', () => {
      const errs = [
        fieldError.invalid(FieldPath.of('spec', 'replicas'), -1, 'must be greater than or equal to 0'),
        fieldError.invalid(FieldPath.of('spec', 'template', 'metadata', 'labels'), { goSyntax: 'map[string]string{"app":"x"}' }, 'selector does not match template labels'),
      ];
      const s = newInvalid({ group: 'apps', kind: 'Deployment' }, 'x', errs).status;
      expect(s.message).toBe('Deployment.apps "x" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, '
        + 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: selector does not match template labels]');
      expect(s.details).toEqual({
        name: 'x', group: 'apps', kind: 'Deployment', causes: [
          { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: map[string]string{"app":"x"}: selector does not match template labels', field: 'spec.template.metadata.labels' },
        ],
      });
    });
  });

  describe('Forbidden', () => {
    it('words RBAC denials as the authorization filter does', () => {
      const a = { user: 'alice', verb: 'list', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'default' };
      expect(newAuthorizationForbidden(a).message).toBe(
        'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"');
      expect(newAuthorizationForbidden({ ...a, verb: 'get', name: 'x', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }).message).toBe(
        'deployments.apps "x" is forbidden: User "alice" cannot get resource "deployments/scale" in API group "apps" in the namespace "default"');
    });

    // Bodies from apiserver responsewriters/errors_test.go TestForbidden.
    it.each([
      [{ user: 'NAME', verb: 'GET', resourceRequest: false, path: '/whatever' },
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"NAME\\" cannot GET path \\"/whatever\\"","reason":"Forbidden","details":{},"code":403}'],
      [{ user: 'NAME', verb: 'GET', resourceRequest: false, path: '/<script>' },
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"NAME\\" cannot GET path \\"/&lt;script&gt;\\"","reason":"Forbidden","details":{},"code":403}'],
      [{ user: 'NAME', verb: 'get', resourceRequest: true, resource: 'pod' },
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pod is forbidden: User \\"NAME\\" cannot get resource \\"pod\\" in API group \\"\\" at the cluster scope","reason":"Forbidden","details":{"kind":"pod"},"code":403}'],
      [{ user: 'NAME', verb: 'get', resourceRequest: true, resource: 'pod', name: 'mypod' },
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pod \\"mypod\\" is forbidden: User \\"NAME\\" cannot get resource \\"pod\\" in API group \\"\\" at the cluster scope","reason":"Forbidden","details":{"name":"mypod","kind":"pod"},"code":403}'],
      [{ user: 'NAME', verb: 'get', resourceRequest: true, apiGroup: 'v2', resource: 'pod', subresource: 'quota', namespace: 'test' },
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pod.v2 is forbidden: User \\"NAME\\" cannot get resource \\"pod/quota\\" in API group \\"v2\\" in the namespace \\"test\\"","reason":"Forbidden","details":{"group":"v2","kind":"pod"},"code":403}'],
    ])('%# ', (attrs, body) => {
      expect(JSON.stringify(newAuthorizationForbidden(attrs).status)).toBe(body);
    });

    it('appends the authorizer reason', () => {
      expect(forbiddenMessage({ user: 'u', verb: 'create', resourceRequest: true, resource: 'pods', namespace: 'ns' }))
        .toBe('User "u" cannot create resource "pods" in API group "" in the namespace "ns"');
      expect(newForbidden(pods, '', 'why').message).toBe('pods is forbidden: why');
    });
  });

  it('words resourceVersion failures as the watch cache does', () => {
    const expired = newTooOldResourceVersion(5, 17).status;
    expect(expired).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 5 (17)', reason: 'Expired', code: 410 });

    expect(JSON.stringify(newTooLargeResourceVersion(100, 42, 1).status)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: Too large resource version: 100, current: 42","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1},"code":504}');
    expect(newTooLargeResourceVersion(100, 42, 0).status.details).toEqual({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] });
  });

  it('puts the fresh continue token of a compacted list in metadata', () => {
    const s = newContinueExpired('tok').status;
    expect(s.metadata).toEqual({ continue: 'tok' });
    expect(s.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token/);
  });

  it('words the remaining constructors as upstream', () => {
    expect(newBadRequest('bad').status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'bad', reason: 'BadRequest', code: 400 });
    expect(newTooManyRequests('slow down', 1).status.details).toEqual({ retryAfterSeconds: 1 });
    expect(newTooManyRequests('slow down', 0).status.details).toEqual({});
    expect(newMethodNotSupported(pods, 'watch').message).toBe('watch is not supported on resources of kind "pods"');
    expect(newMethodNotSupported(pods, 'watch').code).toBe(405);
    expect(newServerTimeout({ group: '', resource: 'pods' }, 'POST', 0).message)
      .toBe('The POST operation against pods could not be completed at this time, please try again.');
    expect(newInternalError('boom').status).toMatchObject({ message: 'Internal error occurred: boom', code: 500, details: { causes: [{ message: 'boom' }] } });
    expect(newUnsupportedMediaType(['application/json', 'application/yaml']).message)
      .toBe('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
  });

  it('words generic server responses as NewGenericServerResponse does', () => {
    expect(newGenericServerResponse(404, '404: Page Not Found').status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 });
    expect(newGenericServerResponse(422, 'x').message).toBe('the server rejected our request due to an error in our request');
    expect(newGenericServerResponse(500, 'boom').message).toBe('an error on the server ("boom") has prevented the request from succeeding');
    expect(newGenericServerResponse(418, '').status.reason).toBe('');
  });

  it('builds success Statuses', () => {
    expect(JSON.stringify(successStatus({ name: 'nginx', group: 'apps', kind: 'deployments', uid: 'u' }))).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"nginx","group":"apps","kind":"deployments","uid":"u"}}');
    expect(successStatus(undefined, 201)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    expect(new StatusError(successStatus()).code).toBe(0);
  });
});
