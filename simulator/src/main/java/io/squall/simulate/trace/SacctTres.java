package io.squall.simulate.trace;

/**
 * The GPUs in a TRES list as sacct prints AllocTRES and ReqTRES:
 * {@code billing=128,cpu=128,gres/gpu=16,mem=1000G,node=2}, or with typed GPUs
 * {@code gres/gpu:h100=16}. Slurm lists the total ({@code gres/gpu}) beside the typed counts when
 * it has both, so the total wins and typed counts are added up only when it is absent.
 */
final class SacctTres {
  private static final String GPU = "gres/gpu";

  private SacctTres() {}

  /**
   * @return the GPUs listed, 0 when none (an empty list included)
   * @throws IllegalArgumentException saying what is wrong, when the list is malformed
   */
  static int gpus(String tres) {
    Integer total = null;
    long typed = 0;
    if (tres.isBlank()) {
      return 0;
    }
    for (String entry : tres.split(",", -1)) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(RowFields.quoted(tres) + " is not a TRES list (name=count,...)");
      }
      String name = entry.substring(0, eq).strip();
      if (!name.equals(GPU) && !name.startsWith(GPU + ":")) {
        continue;
      }
      String count = entry.substring(eq + 1).strip();
      if (!count.matches("\\d{1,9}")) {
        throw new IllegalArgumentException(RowFields.quoted(entry) + " is not a GPU count (" + GPU + "=N)");
      }
      if (name.equals(GPU)) {
        total = Integer.parseInt(count);
      } else {
        typed += Integer.parseInt(count);
      }
    }
    if (total != null) {
      return total;
    }
    if (typed > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(RowFields.quoted(tres) + " lists too many GPUs");
    }
    return (int) typed;
  }
}
