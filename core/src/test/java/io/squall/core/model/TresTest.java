package io.squall.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TresTest {
  @Test
  void parsesSacctmgrTresLists() {
    assertThat(Tres.parse("cpu=64,mem=512G,node=4,gres/gpu=16")).isEqualTo(new Tres(16, 64, 512L * 1024, 4));
    assertThat(Tres.parse("mem=2048")).isEqualTo(new Tres(null, null, 2048L, null));
    assertThat(Tres.parse("mem=1T").memoryMb()).isEqualTo(1024L * 1024);
    assertThat(Tres.parse("GRES/GPU=8,cpu=-1")).isEqualTo(Tres.ofGpus(8));
    assertThat(Tres.parse("")).isEqualTo(Tres.NONE);
    assertThat(Tres.parse(null)).isEqualTo(Tres.NONE);
  }

  @Test
  void refusesWhatItCannotLimitSayingWhy() {
    assertThatThrownBy(() -> Tres.parse("license/matlab=1")).hasMessageContaining("'license/matlab' is not a TRES");
    assertThatThrownBy(() -> Tres.parse("gres/gpu:h100=4")).hasMessageContaining("by GPU type");
    assertThatThrownBy(() -> Tres.parse("cpu=lots")).hasMessageContaining("cpu=lots: 'lots' is not a whole number");
    assertThatThrownBy(() -> Tres.parse("cpu")).hasMessageContaining("'cpu' is not NAME=COUNT");
    assertThatThrownBy(() -> Tres.parse("node=-2")).hasMessageContaining("0 or more");
    assertThatThrownBy(() -> Tres.parse("mem=4X")).hasMessageContaining("K, M, G or T");
  }
}
