package io.squall.cli.service;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON body of {@code POST /v1/jobs}. Options go as {@code argv}, exactly as typed, so the
 * service's parser (the one source of truth) sees what sbatch would have seen.
 *
 * @param testOnly null unless {@code --test-only} was given
 * @param interactive null for a batch script; true for salloc's and srun's allocations, which
 *     have no script
 */
public record Submission(
    String script,
    List<String> argv,
    String submitDir,
    String scriptName,
    Map<String, String> environment,
    List<String> scriptArgs,
    Boolean testOnly,
    Boolean interactive) {
  /** A batch script's submission. */
  public Submission(String script, List<String> argv, String submitDir, String scriptName,
      Map<String, String> environment, List<String> scriptArgs, Boolean testOnly) {
    this(script, argv, submitDir, scriptName, environment, scriptArgs, testOnly, null);
  }

  /** The JSON body's fields, in the order above (null ones are left out when written). */
  Map<String, Object> body() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("script", script);
    body.put("argv", argv);
    body.put("submit_dir", submitDir);
    body.put("script_name", scriptName);
    body.put("environment", environment);
    body.put("script_args", scriptArgs);
    body.put("test_only", testOnly);
    body.put("interactive", interactive);
    return body;
  }
}
