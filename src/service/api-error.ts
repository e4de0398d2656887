/**
 * An error a route handler throws to answer with a status and the service's error body
 * `{"msg": "..."}` (`shared/notes/service-facts.md`, "Errors").
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
