package io.squall.api.web;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.Error;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
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
  @Override
  public MutableHttpResponse<Map<String, Object>> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
    List<String> messages = new ArrayList<>();
    for (Error e : context.getErrors()) {
      messages.add(e.getMessage());
    }
    String message = messages.isEmpty() ? response.reason() : String.join("; ", messages);
    if (response.code() == 413) {
      message = "request body too large: the limit is micronaut.server.max-request-size (" + message + ")";
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", message);
    return response.body(body).contentType(MediaType.APPLICATION_JSON_TYPE);
  }
}
