package io.squall.api.tls;

import io.micronaut.context.env.PropertyExpressionResolver;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.value.PropertyResolver;
import java.util.Optional;

/**
 * The placeholder {@code ${squall-tls-configured}}: true when {@code squall.tls.cert} is set.
 * application.yml switches {@code micronaut.server.ssl.enabled} with it, so that naming the
 * certificate is all it takes to serve HTTPS; Micronaut decides whether its TLS beans exist from
 * that property alone, before any bean of ours could change it. Found through
 * {@code META-INF/services}.
 */
public final class TlsConfigured implements PropertyExpressionResolver {
  static final String EXPRESSION = "squall-tls-configured";
  static final String CERT = "squall.tls.cert";
  static final String KEY = "squall.tls.key";

  @Override
  public <T> Optional<T> resolve(PropertyResolver properties, ConversionService conversion, String expression,
      Class<T> type) {
    if (!EXPRESSION.equals(expression)) {
      return Optional.empty();
    }
    boolean configured = properties.getProperty(CERT, String.class).filter(s -> !s.isBlank()).isPresent();
    return conversion.convert(configured, type);
  }
}
