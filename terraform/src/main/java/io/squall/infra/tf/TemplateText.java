package io.squall.infra.tf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text that goes into Terraform strings: a boot script or a file. Terraform reads {@code ${...}}
 * and {@code %{...}} in every string as its own template syntax, so shell and YAML text is escaped
 * ({@code $${}, {@code %%{}) before Squall's {@code {{name}}} placeholders are replaced by values,
 * which may be Terraform references.
 */
public final class TemplateText {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z_]+)}}");

  private TemplateText() {}

  /** {@code text} as a Terraform string that means exactly {@code text}. */
  public static String literal(String text) {
    return text.replace("${", "$${").replace("%{", "%%{");
  }

  /**
   * The class path resource {@code name} (beside {@code owner}), escaped, with each {@code {{key}}}
   * replaced by its value.
   *
   * @throws IllegalStateException when the resource is missing or names a placeholder not in {@code values}
   */
  public static String render(Class<?> owner, String name, Map<String, String> values) {
    String text;
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is missing from the class path beside " + owner.getName());
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + name, e);
    }
    Matcher m = PLACEHOLDER.matcher(literal(text));
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null) {
        throw new IllegalStateException(name + ": no value for {{" + m.group(1) + "}}");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }
}
