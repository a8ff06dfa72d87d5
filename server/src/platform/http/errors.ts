// One error shape for the whole API: ApiError carries the envelope code, HTTP status and message; the handler maps it.
import { Result, T } from '@sentra/contracts';

export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status = 400,
    readonly errors?: FieldError[],
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A call-specific documented failure (login -1/-2, add application -3, ...), HTTP 400. */
export const fail = (code: number, message: string) => new ApiError(code, message, 400);
export const invalid = (message: string = T.common.invalidInput, errors?: FieldError[]) =>
  new ApiError(Result.INVALID, message, 400, errors);
export const notFound = (message: string = T.common.notFound) => new ApiError(Result.NOT_FOUND, message, 404);
export const conflict = (message: string = T.common.conflict) => new ApiError(Result.CONFLICT, message, 400);
export const forbidden = (message: string = T.common.forbidden) => new ApiError(Result.FORBIDDEN, message, 403);
/** 401 carries no envelope code of its own: the client clears its session. */
export const unauthorized = () => new ApiError(Result.UNAUTHORIZED, T.common.unauthorized, 401);
export const billingExpired = (isTenant: boolean) =>
  new ApiError(Result.BILLING_EXPIRED, T.common.billingExpired, 402, undefined, { isTenant });
