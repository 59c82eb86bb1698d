package io.squall.core.sbatch;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a batch script and explicit options into a {@link JobRequest}, as sbatch does. Pure and
 * thread-safe: "now" is passed in (it anchors {@code --begin=now+1hour}) and no file is read.
 */
public final class SbatchParser {
  private final ZoneId zone;

  /** @param zone the submitter's time zone, for {@code --begin=16:00} and dates */
  public SbatchParser(ZoneId zone) {
    this.zone = zone;
  }

  /** The request and what the user should be told but is not an error. */
  public record Result(JobRequest request, List<String> warnings) {
    public Result {
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * @param script the whole batch script
   * @param scriptName the job name when none is given (sbatch uses the script's file name)
   * @param explicitOptions options from the command line or API, overriding directives
   * @param now the submission time
   * @throws SbatchException naming the line or option, the directive and the reason
   */
  public Result parse(String script, String scriptName, List<String> explicitOptions, Instant now) {
    return parse(script, scriptName, Map.of(), explicitOptions, now);
  }

  /**
   * As {@link #parse(String, String, List, Instant)}, with the submitter's environment: its input
   * variables ({@code SBATCH_PARTITION}, ..., see {@link InputEnvironment}) override the script's
   * directives and are overridden by the explicit options, as in sbatch.
   *
   * @param environment the environment sbatch runs in; only its input variables are read
   */
  public Result parse(String script, String scriptName, Map<String, String> environment, List<String> explicitOptions,
      Instant now) {
    int nul = script.indexOf('\0');
    if (nul >= 0) {
      throw new SbatchException("line " + (1 + script.substring(0, nul).chars().filter(c -> c == '\n').count()), "",
          "the script contains a NUL character; a batch script is text");
    }
    DirectiveScanner.Scan scan = DirectiveScanner.scan(script);
    List<String> warnings = new ArrayList<>(scan.warnings());
    RequestBuilder builder = new RequestBuilder(now, zone, warnings);
    builder.applyAll(scan.options());
    builder.applyAll(InputEnvironment.options(environment, warnings));
    builder.applyAll(OptionTokenizer.tokenize(explicitOptions, "option"));
    return new Result(builder.build(script, scriptName), warnings);
  }
}
