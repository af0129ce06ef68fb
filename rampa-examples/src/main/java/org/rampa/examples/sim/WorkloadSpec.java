package org.rampa.examples.sim;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServiceRequest;

/**
 * A workload mix as users write it (JSON): catalog models, their form, batch, SLO class, weight.
 *
 * @param classes the service classes; {@code phase} is "model" (a CNN or a transformer at its
 *     default sequence), "prefill" or "decode"; {@code tokens} is the sequence (prefill) or
 *     context (decode) length
 */
public record WorkloadSpec(@JsonProperty(required = true) List<Entry> classes) {

  /** At most this many classes and this batch: far above any real mix, and each costs planning time. */
  public static final int MAX_CLASSES = 1000;

  public static final int MAX_BATCH = 4096;

  /** One service class; every field is required (a missing number must not become 0). */
  public record Entry(
      @JsonProperty(required = true) String model,
      @JsonProperty(required = true) String phase,
      @JsonProperty(required = true) int tokens,
      @JsonProperty(required = true) int batch,
      @JsonProperty(required = true) SloClass slo,
      @JsonProperty(required = true) double weight,
      @JsonProperty(required = true) int maxStages) {
    public Entry {
      Invalid.requireNonBlank("workload.model", model);
      if (batch < 1 || batch > MAX_BATCH) {
        throw Invalid.value("workload." + model + ".batch", batch, "must lie in [1, " + MAX_BATCH + "]");
      }
      if (!List.of("model", "prefill", "decode").contains(phase)) {
        throw Invalid.value("workload." + model + ".phase", phase, "must be model, prefill or decode");
      }
      // tokens given for a whole model would be silently ignored: say so instead
      if (phase.equals("model") ? tokens != 0 : tokens < 1) {
        throw Invalid.value("workload." + model + ".tokens", tokens,
            phase.equals("model") ? "must be 0 for phase model (its sequence is the catalog default)" : "must be >= 1 for phase " + phase);
      }
      if (slo == null) {
        throw Invalid.value("workload." + model + ".slo", null, "must be TIGHT, MEDIUM or LOOSE");
      }
      if (!Double.isFinite(weight) || weight <= 0) {
        throw Invalid.value("workload." + model + ".weight", weight, "must be a finite number > 0");
      }
      if (maxStages < 1 || maxStages > ServiceRequest.MAX_STAGES) {
        throw Invalid.value("workload." + model + ".maxStages", maxStages, "must lie in [1, " + ServiceRequest.MAX_STAGES + "]");
      }
    }
  }

  public WorkloadSpec {
    if (classes == null || classes.isEmpty()) {
      throw Invalid.value("workload.classes", classes == null ? "(missing)" : "[]", "a workload needs at least one class");
    }
    if (classes.size() > MAX_CLASSES) {
      throw Invalid.value("workload.classes", classes.size() + " classes", "must be at most " + MAX_CLASSES);
    }
    if (classes.contains(null)) {
      throw Invalid.value("workload.classes[" + classes.indexOf(null) + "]", null, "must be a class");
    }
    classes = List.copyOf(classes);
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
