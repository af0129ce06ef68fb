package org.rampa.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rampa.catalog.ModelCatalog;
import org.rampa.json.RampaJson;

class ServiceSpecTest {

  private static final RampaYarnConfig CONFIG = RampaYarnConfig.from(Map.<String, String>of()::get);

  static Set<String> tags(String... t) {
    return new LinkedHashSet<>(List.of(t));
  }

  @Test
  void aFullRequestBecomesRampasServiceRequest() {
    ServiceSpec s = ServiceSpec.parse(tags("rampa.service=chat", "rampa.model=llama2-7b", "rampa.phase=decode",
        "rampa.tokens=1024", "rampa.slo.throughput=12.5", "rampa.slo.latency-ms=250", "rampa.slo.batch=4",
        "rampa.max-stages=3", "rampa.strategy=dp", "rampa.importance=uniform", "rampa.sharing=none", "team=search"),
        "application_1_0001", CONFIG);
    assertThat(s.name()).isEqualTo("chat");
    assertThat(s.request().id()).isEqualTo("application_1_0001/chat");
    assertThat(s.request().model()).isEqualTo(ModelCatalog.decode("llama2-7b", 1024));
    assertThat(s.request().slo().requiredThroughput()).isEqualTo(12.5);
    assertThat(s.request().slo().latencyBound()).isEqualTo(Duration.ofMillis(250));
    assertThat(s.request().slo().batchSize()).isEqualTo(4);
    assertThat(s.request().maxStages()).isEqualTo(3);
    assertThat(s.strategy()).isEqualTo("dp");
    assertThat(s.importance()).isEqualTo("uniform");
    assertThat(s.ownTags()).containsExactly("team=search");
  }

  @Test
  void omittedSettingsTakeTheConfiguredDefaults() {
    ServiceSpec s = ServiceSpec.parse(tags("rampa.service=img", "rampa.model=resnet50", "rampa.slo.throughput=100",
        "rampa.slo.latency-ms=20"), "app", CONFIG);
    assertThat(s.request().model()).isEqualTo(ModelCatalog.model("resnet50"));
    assertThat(s.request().slo().batchSize()).isEqualTo(1);
    assertThat(s.request().maxStages()).isEqualTo(8);
    assertThat(s.strategy()).isEqualTo(CONFIG.strategy());
    assertThat(s.importance()).isEqualTo(CONFIG.importance());
  }

  @Test
  void aModelFileIsReadFromThePathTheTagGives(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("model.json");
    Files.writeString(file, RampaJson.write(ModelCatalog.model("vgg16")));
    ServiceSpec s = ServiceSpec.parse(tags("rampa.service=v", "rampa.model-file=" + file, "rampa.slo.throughput=10",
        "rampa.slo.latency-ms=100"), "app", CONFIG);
    assertThat(s.request().model()).isEqualTo(ModelCatalog.model("vgg16"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "rampa.model=resnet50,rampa.slo.throughput=1,rampa.slo.latency-ms=1|rampa.service = (missing): is required. Maybe add the allocation tag rampa.service=...",
      "rampa.service=-x,rampa.model=resnet50,rampa.slo.throughput=1,rampa.slo.latency-ms=1|rampa.service = -x: must be 1-64 letters",
      "rampa.service=x,rampa.slo.throughput=1,rampa.slo.latency-ms=1|rampa.model / rampa.model-file = null / null: exactly one must be given",
      "rampa.service=x,rampa.model=gpt5,rampa.slo.throughput=1,rampa.slo.latency-ms=1|rampa.model = gpt5: is not a catalog model",
      "rampa.service=x,rampa.model=resnet50,rampa.slo.latency-ms=1|rampa.slo.throughput = (missing): is required",
      "rampa.service=x,rampa.model=resnet50,rampa.slo.throughput=-3,rampa.slo.latency-ms=1|rampa.slo.throughput = -3: must be a finite number > 0",
      "rampa.service=x,rampa.model=resnet50,rampa.slo.throughput=NaN,rampa.slo.latency-ms=1|rampa.slo.throughput = NaN: must be a finite number > 0",
      "rampa.service=x,rampa.model=resnet50,rampa.slo.throughput=1,rampa.slo.latency-ms=1,rampa.slo.batch=0|rampa.slo.batch = 0: must be an integer in [1, 4096]",
      "rampa.service=x,rampa.model=resnet50,rampa.slo.throughput=1,rampa.slo.latency-ms=1,rampa.max-stages=two|rampa.max-stages = two: must be an integer in [1, 1024]",
      "rampa.service=x,rampa.model=llama2-7b,rampa.phase=prefill,rampa.slo.throughput=1,rampa.slo.latency-ms=1|rampa.tokens = (missing): is required",
      "rampa.service=x,rampa.model=llama2-7b,rampa.phase=train,rampa.slo.throughput=1,rampa.slo.latency-ms=1|rampa.phase = train: must be model, prefill or decode",
      "rampa.service=x,rampa.model=resnet50,rampa.tokens=5,rampa.slo.throughput=1,rampa.slo.latency-ms=1|rampa.tokens = 5: applies to phase prefill or decode only",
      "rampa.service=x,rampa.model=resnet50,rampa.slo.throughput=1,rampa.slo.latency-ms=1,rampa.strategy=fast|rampa.strategy = fast: must name an available RAMPA strategy",
      "rampa.service=x,rampa.model=resnet50,rampa.slo.throughput=1,rampa.slo.latency-ms=1,rampa.importance=x|rampa.importance = x: must name an importance model",
      "rampa.service=x,rampa.model=resnet50,rampa.slo.throughput=1,rampa.slo.latency-ms=1,rampa.sharing=mig|rampa.sharing = mig: YARN cannot enforce GPU shares",
      "rampa.service=x,rampa.modle=resnet50,rampa.slo.throughput=1,rampa.slo.latency-ms=1|tag rampa.modle = rampa.modle=resnet50: is not a key of the request contract",
      "rampa.service=x,rampa.model=resnet50,rampa.slo.throughput=1,rampa.slo.latency-ms=|tag rampa.slo.latency-ms = rampa.slo.latency-ms=: must read rampa.slo.latency-ms=VALUE",
  })
  void badInputNamesTheTagTheValueAndTheRule(String tagList, String message) {
    assertThatThrownBy(() -> ServiceSpec.parse(tags(tagList.split(",")), "app", CONFIG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void aTagGivenTwiceIsRefused() {
    // a Set cannot hold the same tag twice, but it can hold one key with two values
    assertThatThrownBy(() -> ServiceSpec.parse(tags("rampa.service=x", "rampa.service=y"), "app", CONFIG))
        .hasMessageStartingWith("tag rampa.service = rampa.service=y: is given twice");
  }
}
