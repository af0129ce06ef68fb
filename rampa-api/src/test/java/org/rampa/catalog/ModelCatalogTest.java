package org.rampa.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rampa.domain.Model;

class ModelCatalogTest {

  static Iterable<String> names() {
    return ModelCatalog.names();
  }

  @ParameterizedTest
  @MethodSource("names")
  void totalParametersMatchThePublishedCountWithinOnePercent(String name) {
    double params = ModelCatalog.parameters(ModelCatalog.model(name));
    double published = ModelCatalog.publishedParameters(name);
    System.out.printf("catalog: %-14s %,.0f parameters (published %,.0f, %+.2f %%)%n", name, params, published, 100 * (params / published - 1));
    assertThat(params / published).isCloseTo(1.0, within(0.01));
  }

  @Test
  void catalogHasEveryModelTheIssueNames() {
    assertThat(ModelCatalog.names()).contains(
        "resnet50", "vgg16", "mobilenetv2", "bert-base", "bert-large", "gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl",
        "vit-b16", "vit-l16", "llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b", "llama3-70b", "opt-30b", "opt-66b",
        "mixtral-8x7b");
  }

  @Test
  void resnet50FlopsMatchTorchvision() {
    assertThat(ModelCatalog.model("resnet50").totalFlopsPerSample()).isCloseTo(8.18e9, within(0.02e9));
    assertThat(ModelCatalog.model("vgg16").totalFlopsPerSample()).isCloseTo(30.94e9, within(0.05e9));
  }

  @Test
  void bertLargeAtSequence384NeedsAbout246Gflop() {
    // model catalog: 24 * (2 * 12.58M * 384 + 4 * 1024 * 384^2) = ~246 GFLOP (blocks only)
    Model bert = ModelCatalog.prefill("bert-large", 384);
    double blocks = 0;
    for (int i = 1; i <= 24; i++) {
      blocks += bert.layer(i).flopsPerSample();
    }
    assertThat(blocks).isCloseTo(246e9, within(2e9));
  }

  @Test
  void decodeStepKeepsTheKvCacheAsStatePerSequence() {
    Model decode = ModelCatalog.decode("llama2-70b", 4096);
    // GQA with 8 KV heads of 128: 2 * 8 * 128 * 2 B = 4096 B per token per block
    assertThat(decode.layer(1).stateBytesPerSample()).isEqualTo(4096L * 4096);
    assertThat(decode.layer(1).outputBytesPerSample()).isEqualTo(8192L * 2);
    assertThat(ModelCatalog.prefill("llama2-70b", 512).layer(1).outputBytesPerSample()).isEqualTo(512L * 8192 * 2);
  }

  @Test
  void mixtralComputesWithTwoExpertsButStoresEight() {
    Model m = ModelCatalog.decode("mixtral-8x7b", 1);
    assertThat(m.layer(1).weightBytes() / 2.0).isCloseTo(1451.3e6, within(1e6));
    assertThat(m.layer(1).flopsPerSample()).isCloseTo(2 * 394.3e6, within(2e6));
  }

  @Test
  void encodersHaveNoDecodePhase() {
    assertThatThrownBy(() -> ModelCatalog.decode("bert-base", 128))
        .hasMessageContaining("model = bert-base").hasMessageContaining("encoder").hasMessageContaining("Maybe use prefill");
  }

  @Test
  void unknownModelListsTheKnownOnes() {
    assertThatThrownBy(() -> ModelCatalog.model("resnet51")).hasMessageContaining("model = resnet51").hasMessageContaining("resnet50");
  }
}
