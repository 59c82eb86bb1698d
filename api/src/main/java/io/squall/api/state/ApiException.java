package io.squall.api.state;

import io.micronaut.http.HttpStatus;
import java.util.Map;

/** A request that cannot be done as asked; its message goes to the caller as {@code {"error": ...}}. */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final HttpStatus status;
  private final transient Map<String, Object> details;

  public ApiException(HttpStatus status, String message) {
    this(status, message, Map.of());
  }

  public ApiException(HttpStatus status, String message, Map<String, Object> details) {
    super(message);
    this.status = status;
    this.details = Map.copyOf(details);
  }

  public static ApiException notFound(String what) {
    return new ApiException(HttpStatus.NOT_FOUND, what);
  }

  public static ApiException badRequest(String what) {
    return new ApiException(HttpStatus.BAD_REQUEST, what);
  }

  public static ApiException forbidden(String what) {
    return new ApiException(HttpStatus.FORBIDDEN, what);
  }

  public static ApiException conflict(String what) {
    return new ApiException(HttpStatus.CONFLICT, what);
  }

  public HttpStatus status() {
    return status;
  }

  public Map<String, Object> details() {
    return details;
  }
}
