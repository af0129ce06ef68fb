package org.rampa.examples.sim;

import java.util.List;
import org.rampa.domain.Invalid;

/**
 * A workload mix as users write it (JSON): catalog models, their form, batch, SLO class, weight.
 *
 * @param classes the service classes; {@code phase} is "model" (a CNN or a transformer at its
 *     default sequence), "prefill" or "decode"; {@code tokens} is the sequence (prefill) or
 *     context (decode) length
 */
public record WorkloadSpec(List<Entry> classes) {

  /** One service class. */
  public record Entry(String model, String phase, int tokens, int batch, SloClass slo, double weight, int maxStages) {
    public Entry {
      if (batch < 1) {
        throw Invalid.value("workload." + model + ".batch", batch, "must be >= 1");
      }
      if (!List.of("model", "prefill", "decode").contains(phase)) {
        throw Invalid.value("workload." + model + ".phase", phase, "must be model, prefill or decode");
      }
    }
  }

  public WorkloadSpec {
    classes = List.copyOf(classes);
    if (classes.isEmpty()) {
      throw Invalid.value("workload.classes", "[]", "a workload needs at least one class");
    }
  }

  /**
   * The default mix: many small CNN and encoder services, fewer mid-size LLM prefill services, and
   * some Llama-2-70B decode services that only fit on several 80 GB GPUs (or many smaller ones),
   * each at three SLO tightnesses.
   */
  public static WorkloadSpec standardMix() {
    List<Entry> e = new java.util.ArrayList<>();
    for (SloClass slo : SloClass.values()) {
      e.add(new Entry("resnet50", "model", 0, 8, slo, 3, 4));
      e.add(new Entry("mobilenetv2", "model", 0, 8, slo, 1, 4));
      e.add(new Entry("bert-base", "prefill", 128, 8, slo, 2, 4));
      e.add(new Entry("bert-large", "prefill", 384, 4, slo, 2, 4));
      e.add(new Entry("gpt2-xl", "prefill", 512, 1, slo, 1, 4));
      e.add(new Entry("llama2-7b", "prefill", 512, 1, slo, 1, 4));
      e.add(new Entry("llama2-13b", "prefill", 512, 1, slo, 1, 4));
      e.add(new Entry("llama2-70b", "decode", 1024, 8, slo, 1, 8));
    }
    return new WorkloadSpec(e);
  }
}
