package io.squall.api.web;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.squall.api.state.ApiException;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;

/** Turns a refused request into its status and {@code {"error": ...}} with any details. */
@Singleton
public final class ApiExceptionHandler implements ExceptionHandler<ApiException, HttpResponse<Map<String, Object>>> {
  @Override
  public HttpResponse<Map<String, Object>> handle(HttpRequest request, ApiException e) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", e.getMessage());
    body.putAll(e.details());
    return HttpResponse.<Map<String, Object>>status(e.status()).body(body);
  }
}
