package io.squall.cli;

import io.squall.core.sbatch.JobRequestView;
import io.squall.core.sbatch.CommandLine;
import io.squall.core.sbatch.SbatchException;
import io.squall.core.sbatch.SbatchParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code squall sbatch}: with {@code --parse-only [OPTIONS] FILE [OPTIONS]} validates a batch
 * script locally and prints the normalized request as JSON (no service needed); otherwise
 * submits it to the service ({@link SbatchSubmit}).
 */
final class SbatchCommand {
  private final Invocation io;

  SbatchCommand(Invocation io) {
    this.io = io;
  }

  int run(List<String> args) {
    List<String> words = new ArrayList<>(args);
    boolean parseOnly = words.remove("--parse-only");
    if (!parseOnly) {
      return new SbatchSubmit(io).run(args);
    }
    try {
      CommandLine line = CommandLine.split(words);
      List<String> options = new ArrayList<>(line.options());
      // With --parse-only there are no script arguments: words after FILE are options too.
      options.addAll(line.afterScript());
      String script;
      String name;
      if (line.script() == null || line.script().equals("-")) {
        script = new String(io.in().readAllBytes(), StandardCharsets.UTF_8);
        name = "sbatch";
      } else {
        Path path = io.cwd().resolve(line.script());
        script = Files.readString(path, StandardCharsets.UTF_8);
        name = path.getFileName().toString();
      }
      SbatchParser.Result result = new SbatchParser(io.zone()).parse(script, name, options, io.clock().instant());
      result.warnings().forEach(w -> io.err().println("sbatch: warning: " + w));
      io.out().println(Json.write(JobRequestView.of(result.request())));
      return 0;
    } catch (SbatchException e) {
      io.err().println("sbatch: error: " + e.getMessage());
      return 1;
    } catch (NoSuchFileException e) {
      io.err().println("sbatch: error: Unable to open file " + e.getFile());
      return 1;
    } catch (IOException e) {
      io.err().println("sbatch: error: cannot read the script: " + e.getMessage());
      return 1;
    }
  }
}
