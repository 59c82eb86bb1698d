package io.squall.api.jobs;

import io.squall.api.state.ApiException;
import io.squall.api.web.TextRules;
import java.util.List;
import java.util.Map;

/**
 * A submission as it arrived, before parsing: the script, explicit sbatch options (which
 * override its {@code #SBATCH} lines) and where it was submitted from.
 *
 * <p>Checked as it is made, so that nothing the database could refuse reaches the writer's group
 * commit (where it would fail everyone's changes committed with it): no NUL anywhere, no control
 * characters in paths, names and options, and the column sizes of {@code job_scripts}.
 *
 * @param interactive an allocation for salloc or srun: {@code script} is
 *     {@link io.squall.api.state.Submission#INTERACTIVE_SCRIPT}, {@code scriptName} the job's name
 */
public record SubmitInput(String script, String scriptName, List<String> options, List<String> scriptArgs,
    Map<String, String> environment, String submitDir, boolean testOnly, boolean interactive) {
  /** {@code job_scripts.script_name}. */
  static final int MAX_SCRIPT_NAME = 255;
  /** {@code job_scripts.submit_dir}; also Linux's PATH_MAX. */
  static final int MAX_PATH = 4096;
  /** An option or environment name longer than this is a mistake, not a request. */
  static final int MAX_OPTION = 65536;

  /** @throws ApiException 400 naming the field at fault */
  public SubmitInput {
    options = List.copyOf(options);
    scriptArgs = List.copyOf(scriptArgs);
    environment = Map.copyOf(environment);
    TextRules.plain("script_name", scriptName, MAX_SCRIPT_NAME);
    TextRules.plain("submit_dir", submitDir, MAX_PATH);
    if (!submitDir.startsWith("/")) {
      throw ApiException.badRequest("submit_dir: an absolute path, not " + TextRules.quoted(submitDir));
    }
    for (String o : options) {
      TextRules.plain("option " + TextRules.quoted(o), o, MAX_OPTION);
    }
    for (int i = 0; i < scriptArgs.size(); i++) {
      TextRules.noNul("script_args[" + i + "]", scriptArgs.get(i));
    }
    environment.forEach((k, v) -> {
      TextRules.plain("environment", k, MAX_OPTION);
      if (k.isEmpty() || k.indexOf('=') >= 0) {
        throw ApiException.badRequest("environment: " + TextRules.quoted(k) + " is not a variable name");
      }
      TextRules.noNul("environment." + k, v);
    });
  }

  /** A batch script's submission. */
  public SubmitInput(String script, String scriptName, List<String> options, List<String> scriptArgs,
      Map<String, String> environment, String submitDir, boolean testOnly) {
    this(script, scriptName, options, scriptArgs, environment, submitDir, testOnly, false);
  }
}
