package io.squall.api.web;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.Error;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every error the framework produces (unknown route, unreadable JSON, body too large, ...) in the
 * one shape the API promises: {@code {"error": "message"}}.
 */
@Singleton
@Replaces(ErrorResponseProcessor.class)
public final class ErrorResponses implements ErrorResponseProcessor<Map<String, Object>> {
  /** Netty's defaults, which the service keeps (micronaut.server.netty.max-initial-line-length, max-header-size). */
  private static final int MAX_INITIAL_LINE = 4096;
  private static final int MAX_HEADERS = 8192;

  @Override
  public MutableHttpResponse<Map<String, Object>> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
    List<String> messages = new ArrayList<>();
    for (Error e : context.getErrors()) {
      messages.add(e.getMessage());
    }
    String message = messages.isEmpty() ? response.reason() : String.join("; ", messages);
    if (response.code() == 413) {
      // Netty refuses an overlong request line or header block before routing, and Micronaut
      // answers 413 for any "too long" frame; say which limit it was, with the status HTTP has for it.
      Throwable cause = context.getRequest() instanceof NettyHttpRequest<?> n
          ? n.getNativeRequest().decoderResult().cause() : null;
      if (cause != null) {
        // Netty drops the connection after such a request; say so, or a client reuses it and fails.
        response.getHeaders().set(HttpHeaders.CONNECTION, "close");
      }
      if (cause instanceof TooLongHttpLineException) {
        response.status(HttpStatus.REQUEST_URI_TOO_LONG);
        message = "request line too long: at most " + MAX_INITIAL_LINE + " bytes";
      } else if (cause instanceof TooLongHttpHeaderException) {
        response.status(431, "Request Header Fields Too Large");
        message = "request headers too large: at most " + MAX_HEADERS + " bytes in all";
      } else {
        message = "request body too large: the limit is micronaut.server.max-request-size (" + message + ")";
      }
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", message);
    return response.body(body).contentType(MediaType.APPLICATION_JSON_TYPE);
  }
}
