package io.squall.core.sbatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Shared helpers for the sbatch parser tests. Scripts built with {@link #script} start with
 * {@code #!/bin/bash} on line 1, so the i-th given line (0-based) is line {@code i + 2}.
 */
final class ParserFixtures {
  /** The fixed submission time: Monday 2026-06-15, noon UTC. */
  static final Instant NOW = Instant.parse("2026-06-15T12:00:00Z");
  static final String SCRIPT_NAME = "job.sh";
  static final SbatchParser PARSER = new SbatchParser(ZoneId.of("UTC"));

  private ParserFixtures() {}

  /** A script: the shebang, the given lines as written, then one command. */
  static String script(String... lines) {
    StringBuilder sb = new StringBuilder("#!/bin/bash\n");
    for (String line : lines) {
      sb.append(line).append('\n');
    }
    return sb.append("srun hostname\n").toString();
  }

  /** A script with one {@code #SBATCH} line per given option text (line 2, 3, ...). */
  static String directives(String... options) {
    List<String> lines = new ArrayList<>();
    for (String o : options) {
      lines.add("#SBATCH " + o);
    }
    return script(lines.toArray(new String[0]));
  }

  static SbatchParser.Result parse(String script, String... explicit) {
    return PARSER.parse(script, SCRIPT_NAME, List.of(explicit), NOW);
  }

  /** Parses a script made of the given directives (one per line) and returns the request. */
  static JobRequest request(String... options) {
    return parse(directives(options)).request();
  }

  /** Parses and expects an {@link SbatchException}, which it returns for further checks. */
  static SbatchException failure(String script, String... explicit) {
    Throwable thrown = catchThrowable(() -> parse(script, explicit));
    assertThat(thrown).as("parsing should fail").isInstanceOf(SbatchException.class);
    return (SbatchException) thrown;
  }

  /** Expects the directives (one per line, from line 2) to be refused. */
  static SbatchException directiveFailure(String... options) {
    return failure(directives(options));
  }
}
