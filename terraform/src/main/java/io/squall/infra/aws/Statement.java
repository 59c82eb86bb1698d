package io.squall.infra.aws;

import io.squall.infra.tf.Elements;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One statement of an {@code aws_iam_policy_document}: allow {@code actions} on {@code resources},
 * under an optional condition. Statements are data: IamCoverageTest reads them back from the JSON.
 */
record Statement(String sid, List<String> actions, List<String> resources, Condition condition, String principal) {
  record Condition(String test, String variable, List<String> values) {}

  static Statement allow(String sid, List<String> actions, List<String> resources) {
    return new Statement(sid, actions, resources, null, null);
  }

  Statement when(String test, String variable, String... values) {
    return new Statement(sid, actions, resources, new Condition(test, variable, List.of(values)), principal);
  }

  /** The same statement for a policy that names who it lets in (a trust or resource policy). */
  Statement forService(String service) {
    return new Statement(sid, actions, resources, condition, service);
  }

  Map<String, Object> toTerraform() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sid", sid);
    m.put("effect", "Allow");
    m.put("actions", actions);
    if (resources != null) {
      m.put("resources", resources);
    }
    if (principal != null) {
      m.put("principals", List.of(Map.of("type", "Service", "identifiers", List.of(principal))));
    }
    if (condition != null) {
      m.put("condition", List.of(Map.of("test", condition.test(), "variable", condition.variable(),
          "values", condition.values())));
    }
    return m;
  }

  /** An {@code aws_iam_policy_document} data source of {@code statements}; its {@code json} is the policy. */
  static String document(AwsScope s, String name, List<Statement> statements) {
    return Elements.ref(s.data("aws_iam_policy_document", name,
        Map.of("statement", statements.stream().map(Statement::toTerraform).toList())), "json");
  }
}
