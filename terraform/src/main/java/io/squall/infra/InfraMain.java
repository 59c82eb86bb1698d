package io.squall.infra;

import io.squall.infra.config.ClusterConfig;
import io.squall.infra.config.Cloud;
import io.squall.infra.config.ConfigFile;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code squall infra synth --provider aws|gcp --config FILE --out DIR}: the controller's
 * configuration file in, {@code DIR/cdk.tf.json} out, for {@code terraform init} and
 * {@code terraform apply} in DIR. Bad input is one line on stderr and exit status 2, with nothing
 * written to DIR.
 */
public final class InfraMain {
  static final String USAGE = "usage: squall infra synth --provider aws|gcp --config FILE --out DIR";
  static final int BAD_INPUT = 2;

  private InfraMain() {}

  public static void main(String[] args) {
    System.exit(run(List.of(args), System.out, System.err));
  }

  /** Runs the command; returns the exit status. */
  static int run(List<String> args, PrintStream out, PrintStream err) {
    try {
      Path written = synth(args);
      out.println("squall infra: wrote " + written + " (terraform init && terraform apply in "
          + written.getParent() + ")");
      return 0;
    } catch (InfraException e) {
      err.println("squall infra: " + e.getMessage());
      return BAD_INPUT;
    }
  }

  private static Path synth(List<String> args) throws InfraException {
    if (args.isEmpty() || !args.get(0).equals("synth")) {
      throw new InfraException(USAGE);
    }
    Map<String, String> options = new HashMap<>();
    for (int i = 1; i < args.size(); i += 2) {
      String name = args.get(i);
      if (!List.of("--provider", "--config", "--out").contains(name) || i + 1 >= args.size()) {
        throw new InfraException((i + 1 >= args.size() && name.startsWith("--") ? name + " needs a value; "
            : "unknown argument " + name + "; ") + USAGE);
      }
      options.put(name, args.get(i + 1));
    }
    for (String required : List.of("--provider", "--config", "--out")) {
      if (!options.containsKey(required)) {
        throw new InfraException(required + " is missing; " + USAGE);
      }
    }
    Cloud cloud = Cloud.named(options.get("--provider"));
    ClusterConfig config = ClusterConfig.read(ConfigFile.read(Path.of(options.get("--config"))), cloud);
    return Synthesis.write(config, Path.of(options.get("--out")));
  }
}
