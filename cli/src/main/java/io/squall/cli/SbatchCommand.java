package io.squall.cli;

import io.squall.core.sbatch.CommandLine;
import io.squall.core.sbatch.SbatchException;
import io.squall.core.sbatch.SbatchParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code squall sbatch --parse-only [OPTIONS] FILE [OPTIONS]}: validates a batch script and
 * prints the normalized request as JSON. Submitting for real arrives with the service.
 */
final class SbatchCommand {
  private final InstantSource clock;
  private final ZoneId zone;
  private final InputStream stdin;
  private final PrintStream out;
  private final PrintStream err;

  SbatchCommand(InstantSource clock, ZoneId zone, InputStream stdin, PrintStream out, PrintStream err) {
    this.clock = clock;
    this.zone = zone;
    this.stdin = stdin;
    this.out = out;
    this.err = err;
  }

  int run(List<String> args) {
    List<String> words = new ArrayList<>(args);
    boolean parseOnly = words.remove("--parse-only");
    if (!parseOnly) {
      err.println("sbatch: error: only --parse-only is available yet: submitting needs the Squall service");
      return 2;
    }
    try {
      CommandLine line = CommandLine.split(words);
      List<String> options = new ArrayList<>(line.options());
      // With --parse-only there are no script arguments: words after FILE are options too.
      options.addAll(line.afterScript());
      String script;
      String name;
      if (line.script() == null || line.script().equals("-")) {
        script = new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
        name = "sbatch";
      } else {
        Path path = Path.of(line.script());
        script = Files.readString(path, StandardCharsets.UTF_8);
        name = path.getFileName().toString();
      }
      SbatchParser.Result result = new SbatchParser(zone).parse(script, name, options, clock.instant());
      result.warnings().forEach(w -> err.println("sbatch: warning: " + w));
      out.println(Json.write(JobRequestJson.of(result.request())));
      return 0;
    } catch (SbatchException e) {
      err.println("sbatch: error: " + e.getMessage());
      return 1;
    } catch (NoSuchFileException e) {
      err.println("sbatch: error: Unable to open file " + e.getFile());
      return 1;
    } catch (IOException e) {
      err.println("sbatch: error: cannot read the script: " + e.getMessage());
      return 1;
    }
  }
}
