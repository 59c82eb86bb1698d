package io.squall.api.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The job list in pieces: joined, exactly what one JSON document of the same summaries is. */
class JobListChunksTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void piecesJoinIntoTheSameJsonAsTheWholeListAndNoneIsHumongous() throws Exception {
    List<Map<String, Object>> jobs = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("job_id", Integer.toString(i));
      m.put("job_id_raw", (long) i);
      m.put("array_task_id", i % 3 == 0 ? null : i);
      m.put("name", "t\u00e9st \"" + i + "\"\n");
      m.put("held", i % 2 == 0);
      m.put("submit_time", "2026-11-27T05:00:00Z");
      m.put("stdout", "/home/alice/slurm-" + i + ".out".repeat(20));
      jobs.add(m);
    }
    // Every third job is not shown (filtered out by the caller's view).
    List<byte[]> pieces = pieces(jobs, null, m -> ((Long) m.get("job_id_raw")) % 3 == 1 ? null : m);

    String joined = joined(pieces);
    List<Map<String, Object>> shown = jobs.stream().filter(m -> ((Long) m.get("job_id_raw")) % 3 != 1).toList();
    assertThat(joined).isEqualTo(JSON.writeValueAsString(Map.of("jobs", shown)));
    assertThat(joined.length()).isGreaterThan(4 * JobListChunks.PIECE_BYTES);
    assertThat(pieces).hasSizeGreaterThan(4);
    // Below half of the smallest G1 region (1 MB): no piece is a humongous allocation.
    assertThat(pieces).allSatisfy(p -> assertThat(p.length).isLessThan(512 * 1024));
  }

  @Test
  void anEmptyListIsOnePiece() throws Exception {
    List<byte[]> pieces = pieces(List.of(), null, m -> m);

    assertThat(pieces).hasSize(1);
    assertThat(new String(pieces.get(0), "UTF-8")).isEqualTo("{\"jobs\":[]}");
  }

  @Test
  void asRowsEachJobIsItsValuesInOrderUnderTheNamesSaidOnce() throws Exception {
    List<Map<String, Object>> jobs = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("job_id", Integer.toString(i));
      m.put("nodes", i % 2 == 0 ? null : "node-[1-4]");
      m.put("num_nodes", i);
      m.put("name", "t\u00e9st \"" + i + "\"".repeat(30));
      jobs.add(m);
    }
    List<byte[]> pieces = pieces(jobs, List.of("job_id", "nodes", "num_nodes", "name"), m -> m);

    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("fields", List.of("job_id", "nodes", "num_nodes", "name"));
    expected.put("rows", jobs.stream().map(m -> new ArrayList<>(m.values())).toList());
    assertThat(joined(pieces)).isEqualTo(JSON.writeValueAsString(expected));
    assertThat(pieces).hasSizeGreaterThan(2);
    assertThat(joined(pieces(List.of(), List.of("job_id"), m -> m))).isEqualTo("{\"fields\":[\"job_id\"],\"rows\":[]}");
  }

  /** The list's pieces, made on the calling thread. */
  private static List<byte[]> pieces(List<Map<String, Object>> jobs, List<String> rowFields,
      Function<Map<String, Object>, Map<String, Object>> view) {
    return JobListChunks.of(jobs.iterator(), rowFields, view, Runnable::run).collectList().block();
  }

  private static String joined(List<byte[]> pieces) throws Exception {
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    for (byte[] p : pieces) {
      joined.write(p);
    }
    return joined.toString("UTF-8");
  }
}
