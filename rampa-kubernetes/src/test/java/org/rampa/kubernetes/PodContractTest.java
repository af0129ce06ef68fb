package org.rampa.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.rampa.kubernetes.KubeFixtures.podInfo;
import static org.rampa.kubernetes.KubeFixtures.rampaPod;
import static org.rampa.kubernetes.KubeFixtures.service;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The labels, annotations and resources that make a pod part of a RAMPA service. */
class PodContractTest {

  private static final java.util.Set<String> STRATEGIES = org.rampa.strategy.Strategies.available();
  private static final Pod POD = rampaPod("chat", 2, 1, service("llama2-13b", 4, 800, 3), "nvidia.com/gpu");

  @Test
  void readsTheServiceStageReplicaAndResource() {
    PodContract c = PodContract.of(podInfo(POD), "greedy", STRATEGIES);

    assertThat(c.stage()).isEqualTo(2);
    assertThat(c.replica()).isEqualTo(1);
    assertThat(c.service()).isEqualTo(new PodContract.Service("inference/chat", "llama2-13b", "prefill", Optional.empty(),
        4.0, 800, 1, 3, "greedy", Optional.empty()));
    assertThat(c.service().request().model().name()).isEqualTo("llama2-13b-prefill-512");
  }

  @Test
  void aLeaderWorkerSetGroupIsItsOwnServiceAndTheWorkerIndexItsStage() {
    Pod lws = new PodBuilder(POD).editMetadata()
        .removeFromLabels(PodContract.STAGE)
        .addToLabels(PodContract.LWS_WORKER_INDEX, "1")
        .addToLabels(PodContract.LWS_GROUP_INDEX, "3")
        .endMetadata().build();

    PodContract c = PodContract.of(podInfo(lws), "greedy", STRATEGIES);

    assertThat(c.service().id()).isEqualTo("inference/chat-g3");
    assertThat(c.stage()).isEqualTo(1);
  }

  @Test
  void aDecodeServiceNeedsItsContextLength() {
    Pod decode = new PodBuilder(POD).editMetadata().addToAnnotations(PodContract.PHASE, "decode").endMetadata().build();

    assertThatThrownBy(() -> PodContract.of(podInfo(decode), "greedy", STRATEGIES).service().request())
        .hasMessage("annotation rampa.io/tokens is required with rampa.io/phase=decode (the context length)");
  }

  @Test
  void brokenContractsNameWhatToFix() {
    Pod twoGpus = new PodBuilder(POD).editSpec().editFirstContainer().editResources()
        .addToLimits("nvidia.com/gpu", new Quantity("2")).endResources().endContainer().endSpec().build();
    Pod badModel = new PodBuilder(POD).editMetadata().addToAnnotations(PodContract.MODEL, "gpt-5").endMetadata().build();
    Pod badStage = new PodBuilder(POD).editMetadata().addToLabels(PodContract.STAGE, "first").endMetadata().build();
    Pod badStrategy = new PodBuilder(POD).editMetadata().addToAnnotations(PodContract.STRATEGY, "exact").endMetadata().build();

    assertThatThrownBy(() -> PodContract.of(podInfo(twoGpus), "greedy", STRATEGIES)).hasMessage(
        "a RAMPA pod asks for exactly one nvidia.com/gpu or one nvidia.com/mig-<profile>; this one asks for nvidia.com/gpu=2 and MIG {}");
    assertThatThrownBy(() -> PodContract.of(podInfo(badModel), "greedy", STRATEGIES))
        .hasMessageStartingWith("annotation rampa.io/model = gpt-5: must name a model of RAMPA's catalog, one of [resnet50");
    assertThatThrownBy(() -> PodContract.of(podInfo(badStage), "greedy", STRATEGIES))
        .hasMessage("label rampa.io/stage = first: must be a whole number in [0, 1023]");
    assertThatThrownBy(() -> PodContract.of(podInfo(badStrategy), "greedy", STRATEGIES))
        .hasMessageStartingWith("annotation rampa.io/strategy = exact: not available here; available: [");
  }
}
