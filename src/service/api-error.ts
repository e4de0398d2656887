/**
 * An error a route handler throws to answer with a status and the service's error body
 * `{"msg": "..."}`, as the real service answers (docs/local-service.md, "The interface").
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
