package io.squall.infra.tf;

import com.hashicorp.cdktf.TerraformDataSource;
import com.hashicorp.cdktf.TerraformElement;
import com.hashicorp.cdktf.TerraformProvider;
import com.hashicorp.cdktf.TerraformResource;
import com.hashicorp.cdktf.TerraformResourceConfig;
import java.util.Locale;
import java.util.Map;
import software.constructs.Construct;

/**
 * Terraform resources and data sources as CDKTF's generic elements with raw attributes: the
 * attributes go out as written (Terraform's own names), so the JSON is what a hand-written
 * {@code .tf.json} would be and no prebuilt provider binding is needed. Each element takes the
 * logical name given, not CDKTF's path-derived one, so references and tests read
 * {@code aws_vpc.squall}.
 */
public final class Elements {
  private Elements() {}

  /** A {@code resource.TYPE.NAME} with {@code attributes}. */
  public static TerraformResource resource(Construct scope, TerraformProvider provider, String type, String name,
      Map<String, ?> attributes) {
    TerraformResource r = new TerraformResource(scope, type + "." + name,
        TerraformResourceConfig.builder().terraformResourceType(type).provider(provider).build());
    return configure(r, name, attributes);
  }

  /** A {@code data.TYPE.NAME} with {@code attributes}. */
  public static TerraformDataSource data(Construct scope, TerraformProvider provider, String type, String name,
      Map<String, ?> attributes) {
    TerraformDataSource d = new TerraformDataSource(scope, "data." + type + "." + name,
        TerraformResourceConfig.builder().terraformResourceType(type).provider(provider).build());
    return configure(d, name, attributes);
  }

  /** {@code text} as a Terraform name: letters, digits, '_' and '-', starting with a letter or '_'. */
  public static String name(String text) {
    String s = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]", "_");
    return Character.isLetter(s.charAt(0)) || s.charAt(0) == '_' ? s : "_" + s;
  }

  /** {@code ${TYPE.NAME.ATTRIBUTE}} for any attribute path, e.g. {@code master_user_secret[0].secret_arn}. */
  public static String ref(TerraformElement element, String attribute) {
    return "${" + address(element) + "." + attribute + "}";
  }

  /** {@code TYPE.NAME} of a resource, {@code data.TYPE.NAME} of a data source: for use inside expressions. */
  public static String address(TerraformElement element) {
    if (element instanceof TerraformResource r) {
      return r.getTerraformResourceType() + "." + r.getFriendlyUniqueId();
    }
    TerraformDataSource d = (TerraformDataSource) element;
    return "data." + d.getTerraformResourceType() + "." + d.getFriendlyUniqueId();
  }

  private static <T extends TerraformElement> T configure(T element, String name, Map<String, ?> attributes) {
    element.overrideLogicalId(name);
    attributes.forEach(element::addOverride);
    return element;
  }
}
