package io.squall.cli.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.squall.cli.service.JsonAnswer.MalformedAnswerException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonAnswerTest {
  private static InputStream utf8(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonAnswer parse(String text) throws IOException {
    return JsonAnswer.parse(utf8(text));
  }

  private static List<String> ids(String text) throws IOException {
    List<JobInfo> jobs = JsonAnswer.list(utf8(text), "jobs", JobInfo::from);
    return jobs == null ? null : jobs.stream().map(JobInfo::jobId).toList();
  }

  @Test
  void readsEveryKindOfValueAndIgnoresUnknownFields() throws IOException {
    JsonAnswer a = parse("""
        {"job_id":7,"name":"train","big":12345678901,"huge":123456789012345678901234567890,"cost":1.5,
         "held":true,"at":"2026-11-21T10:00:00Z","tags":["a","b"],"gpus":[0,1],"env":{"A":"1","N":2},
         "request":{"nodes":2,"x":[1.0,null]},"absent":null,"future":{"deep":[{}]}}""");
    assertThat(a.string("job_id")).isEqualTo("7");
    assertThat(a.longValue("big")).isEqualTo(12345678901L);
    assertThat(a.integer("job_id")).isEqualTo(7);
    assertThat(a.decimal("cost")).isEqualTo(1.5);
    assertThat(a.decimal("job_id")).isEqualTo(7.0);
    assertThat(a.bool("held")).isTrue();
    assertThat(a.instant("at")).isEqualTo(Instant.parse("2026-11-21T10:00:00Z"));
    assertThat(a.strings("tags")).containsExactly("a", "b");
    assertThat(a.integers("gpus")).containsExactly(0, 1);
    assertThat(a.stringMap("env")).containsExactly(Map.entry("A", "1"), Map.entry("N", "2"));
    assertThat(a.map("request")).containsEntry("nodes", 2);
    assertThat(a.map("request")).containsEntry("x", Arrays.asList(1.0, null));
    assertThat(JsonAnswer.values(utf8("123456789012345678901234567890"))).isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(a.string("absent")).isNull();
    assertThat(a.strings("nowhere")).isNull();
    assertThat(a.longOrZero("nowhere")).isZero();
  }

  @Test
  void aMissingRequiredFieldIsNamedWithItsPlaceInTheAnswer() throws IOException {
    JsonAnswer a = parse("{\"jobs\":[{\"job_id\":\"1\"},{\"name\":\"x\"}]}");
    assertThatThrownBy(() -> a.objects("jobs", JobInfo::from))
        .isInstanceOf(MalformedAnswerException.class)
        .hasMessage("jobs[1].job_id: missing");
  }

  @Test
  void aFieldOfTheWrongTypeIsNamedWithWhatWasExpectedAndWhatCame() throws IOException {
    JsonAnswer a = parse("""
        {"num_nodes":"two","held":"yes","tags":["a",3],"big":3000000000,"at":1763719200,"when":"today",
         "jobs":[{"job_id":"1","allocation":[{"node":"n1","gpus":[0,"x"]}]}],"list":{"a":1},"obj":[1]}""");
    assertThatThrownBy(() -> a.integer("num_nodes")).hasMessage("num_nodes: expected a whole number, got \"two\"");
    assertThatThrownBy(() -> a.bool("held")).hasMessage("held: expected true or false, got \"yes\"");
    assertThatThrownBy(() -> a.strings("tags")).hasMessage("tags[1]: expected a string, got 3");
    assertThatThrownBy(() -> a.integer("big")).hasMessage("big: expected a whole number up to 2147483647, got 3000000000");
    assertThatThrownBy(() -> a.instant("at")).hasMessage("at: expected an ISO-8601 instant, got 1763719200");
    assertThatThrownBy(() -> a.instant("when")).hasMessageStartingWith("when: not an ISO-8601 instant: ");
    assertThatThrownBy(() -> a.objects("jobs", JobInfo::from))
        .hasMessage("jobs[0].allocation[0].gpus[1]: expected a whole number up to 2147483647, got \"x\"");
    assertThatThrownBy(() -> a.strings("list")).hasMessage("list: expected a list, got an object");
    assertThatThrownBy(() -> a.map("obj")).hasMessage("obj: expected an object, got a list");
    assertThatThrownBy(() -> a.decimal("held")).hasMessage("held: expected a number, got \"yes\"");
  }

  @Test
  void textThatIsNotJsonSaysSo() throws IOException {
    assertThatThrownBy(() -> parse("<html>Bad gateway</html>"))
        .isInstanceOf(MalformedAnswerException.class).hasMessageStartingWith("not JSON: ");
    assertThatThrownBy(() -> parse("{\"jobs\":[")).hasMessageStartingWith("not JSON: ");
    assertThatThrownBy(() -> parse("{} {}")).hasMessage("not JSON: more text after the value at line 1, column 4");
    assertThatThrownBy(() -> parse("")).hasMessage("not JSON: the answer is empty");
    assertThatThrownBy(() -> parse("[1]")).hasMessage("expected a JSON object");
  }

  @Test
  void aListIsReadElementByElementWithTheSameChecksAsTheWholeAnswer() throws IOException {
    assertThat(ids("{\"before\":{\"x\":[1]},\"jobs\":[{\"job_id\":\"1\"},{\"job_id\":2}],\"after\":null}"))
        .containsExactly("1", "2");
    assertThat(ids("{\"jobs\":[]}")).isEmpty();
    assertThat(ids("{\"nodes\":[]}")).isNull();
    assertThat(ids("{\"jobs\":null}")).isNull();
    assertThatThrownBy(() -> ids("{\"jobs\":[{\"job_id\":\"1\"},{\"name\":\"x\"}]}")).hasMessage("jobs[1].job_id: missing");
    assertThatThrownBy(() -> ids("{\"jobs\":[{\"job_id\":\"1\"},7]}")).hasMessage("jobs[1]: expected an object, got 7");
    assertThatThrownBy(() -> ids("{\"jobs\":{\"job_id\":\"1\"}}")).hasMessage("jobs: expected a list, got an object");
    assertThatThrownBy(() -> ids("[{\"job_id\":\"1\"}]")).hasMessage("expected a JSON object");
    assertThatThrownBy(() -> ids("{\"jobs\":[{\"job_id\":\"1\"}")).hasMessageStartingWith("not JSON: ");
    assertThatThrownBy(() -> ids("{\"jobs\":[]} []")).hasMessage("not JSON: more text after the value at line 1, column 13");
    assertThatThrownBy(() -> ids("")).hasMessage("not JSON: the answer is empty");
  }

  @Test
  void anElementReadAsNullIsLeftOutAndLaterOnesKeepTheirPlaceInMessages() throws IOException {
    List<String> odd = JsonAnswer.list(utf8("{\"jobs\":[{\"job_id\":\"1\"},{\"job_id\":\"2\"},{\"job_id\":\"3\"}]}"),
        "jobs", a -> a.requiredString("job_id").equals("2") ? null : a.requiredString("job_id"));
    assertThat(odd).containsExactly("1", "3");
    assertThatThrownBy(() -> JsonAnswer.list(utf8("{\"jobs\":[{\"job_id\":\"1\"},{\"name\":\"x\"}]}"), "jobs",
        a -> a.string("name") == null ? null : a.requiredString("job_id"))).hasMessage("jobs[1].job_id: missing");
  }

  @Test
  void aListAnsweredAsRowsIsReadAsTheObjectsItStandsFor() throws IOException {
    List<JobInfo> jobs = JsonAnswer.list(utf8("""
        {"fields":["job_id","num_nodes","name","nodes"],
         "rows":[["1",2,"train",null],["2",null,"eval","node-[1-2]"]]}"""), "jobs", JobInfo::from);
    assertThat(jobs).extracting(JobInfo::jobId, JobInfo::numNodes, JobInfo::name, JobInfo::nodes, JobInfo::user)
        .containsExactly(tuple("1", 2, "train", null, null), tuple("2", null, "eval", "node-[1-2]", null));
    assertThat(ids("{\"fields\":[\"job_id\"],\"rows\":[]}")).isEmpty();
    assertThatThrownBy(() -> ids("{\"rows\":[[\"1\"]],\"fields\":[\"job_id\"]}")).hasMessage("rows: no fields before them");
    assertThatThrownBy(() -> ids("{\"fields\":[\"job_id\",\"name\"],\"rows\":[[\"1\",\"a\"],[\"2\"]]}"))
        .hasMessage("rows[1]: expected 2 values, one for each field, got 1");
    assertThatThrownBy(() -> ids("{\"fields\":[\"job_id\"],\"rows\":[[\"1\",\"x\"]]}"))
        .hasMessage("rows[0]: expected 1 value, one for each field, got 2");
    assertThatThrownBy(() -> ids("{\"fields\":[\"job_id\"],\"rows\":[{\"job_id\":\"1\"}]}"))
        .hasMessage("rows[0]: expected a list of 1 value, got an object");
    assertThatThrownBy(() -> ids("{\"fields\":[\"job_id\",\"job_id\"],\"rows\":[]}")).hasMessage("fields: \"job_id\" twice");
    assertThatThrownBy(() -> ids("{\"fields\":[\"job_id\",7],\"rows\":[]}")).hasMessage("fields[1]: expected a string, got 7");
    assertThatThrownBy(() -> ids("{\"fields\":[\"name\"],\"rows\":[[\"x\"]]}")).hasMessage("rows[0].job_id: missing");
  }

  @Test
  void bodiesAreWrittenInOrderWithoutNulls() throws IOException {
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("b", List.of("x\"y", 2, 1.5, true));
    body.put("a", null);
    body.put("m", Map.of("k", "v"));
    body.put("at", Instant.parse("2026-11-21T10:00:00Z"));
    assertThat(JsonBody.write(body)).isEqualTo("{\"b\":[\"x\\\"y\",2,1.5,true],\"m\":{\"k\":\"v\"},\"at\":\"2026-11-21T10:00:00Z\"}");
  }
}
