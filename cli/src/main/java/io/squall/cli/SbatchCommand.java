package io.squall.cli;

import io.squall.core.sbatch.JobRequestView;
import io.squall.core.sbatch.SbatchException;
import io.squall.core.sbatch.SbatchParser;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code squall sbatch}: with {@code --parse-only [OPTIONS] FILE [OPTIONS]} (before the script;
 * after it the word is the script's argument) validates a batch script locally and prints the
 * normalized request as JSON (no service needed); otherwise submits it to the service
 * ({@link SbatchSubmit}).
 */
final class SbatchCommand {
  private final Invocation io;

  SbatchCommand(Invocation io) {
    this.io = io;
  }

  int run(List<String> args) {
    SbatchSubmit sbatch = new SbatchSubmit(io);
    return sbatch.guarded(() -> {
      SbatchSubmit.ClientOptions client = SbatchSubmit.extract(args);
      return client.parseOnly() ? parseOnly(sbatch, client) : sbatch.submit(client);
    });
  }

  private int parseOnly(SbatchSubmit sbatch, SbatchSubmit.ClientOptions client) {
    SbatchSubmit.Script script = sbatch.readScript(client);
    List<String> options = new ArrayList<>(client.line().options());
    // With --parse-only there are no script arguments: words after FILE are options too.
    options.addAll(client.line().afterScript());
    SbatchParser.Result result;
    try {
      result = new SbatchParser(io.zone()).parse(script.text(), script.name(), io.env(), options,
          io.clock().instant());
    } catch (SbatchException e) {
      throw new UsageException(e.getMessage());
    }
    result.warnings().forEach(sbatch::warning);
    io.out().println(Json.write(JobRequestView.of(result.request())));
    return 0;
  }
}
