package org.rampa.examples.sim;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.perf.PerformanceModel;

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
    // immutable lists (List.of) refuse even to look for null, so search by hand
    for (int i = 0; i < classes.size(); i++) {
      if (classes.get(i) == null) {
        throw Invalid.value("workload.classes[" + i + "]", null, "must be a class");
      }
    }
    classes = List.copyOf(classes);
  }

  /**
   * The mix resolved against a cluster, as the weighted service classes the simulator draws
   * arrivals from (the same type the forecast-driven importance models read): SLOs relative to the
   * best GPU type the cluster has; each class's template id names it ("resnet50/b8/tight").
   */
  public WorkloadForecast resolve(Cluster cluster) {
    PerformanceModel pm = PerformanceModel.defaults();
    WorkloadForecast.Builder forecast = WorkloadForecast.builder();
    for (Entry e : classes) {
      Model model;
      try {
        model = switch (e.phase()) {
          case "prefill" -> ModelCatalog.prefill(e.model(), e.tokens());
          case "decode" -> ModelCatalog.decode(e.model(), e.tokens());
          default -> ModelCatalog.model(e.model());
        };
      } catch (IllegalArgumentException bad) {
        // the catalog names its own parameters (sequenceLength, context): say which workload field it was
        throw new IllegalArgumentException("workload class " + e.model() + " (" + e.phase() + ", tokens " + e.tokens() + "): "
            + bad.getMessage(), bad);
      }
      double best = Double.POSITIVE_INFINITY;
      for (GpuType t : cluster.gpuTypes()) {
        best = Math.min(best, pm.stageSeconds(model, 0, model.size(), t, e.batch()));
      }
      double throughput = e.slo().throughputFactor * e.batch() / best;
      Duration latency = PerformanceModel.seconds(e.slo().latencyFactor * best);
      String name = model.name() + "/b" + e.batch() + "/" + e.slo().name().toLowerCase(Locale.ROOT);
      forecast.add(ServiceRequest.builder()
          .id(name)
          .model(model)
          .slo(Slo.of(throughput, latency, e.batch()))
          .maxStages(e.maxStages())
          .build(), e.weight());
    }
    return forecast.build();
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

  /**
   * Small, latency-light services, where a whole GPU is mostly idle: batch-1 CNNs (ResNet-50,
   * MobileNetV2), a BERT-base encoder pass over 128 tokens, and single decode steps of GPT-2 small
   * and Llama-2-7B at 512 tokens of context, each at three SLO tightnesses, equally likely. The
   * workload where placing services on parts of GPUs can pay (VastPipe experiment E4).
   */
  public static WorkloadSpec lightMix() {
    List<Entry> e = new java.util.ArrayList<>();
    for (SloClass slo : SloClass.values()) {
      e.add(new Entry("resnet50", "model", 0, 1, slo, 1, 4));
      e.add(new Entry("mobilenetv2", "model", 0, 1, slo, 1, 4));
      e.add(new Entry("bert-base", "prefill", 128, 1, slo, 1, 4));
      e.add(new Entry("gpt2-small", "decode", 512, 1, slo, 1, 4));
      e.add(new Entry("llama2-7b", "decode", 512, 1, slo, 1, 4));
    }
    return new WorkloadSpec(e);
  }

  /** The built-in mixes by name: "standard" ({@link #standardMix()}) and "light" ({@link #lightMix()}). */
  public static WorkloadSpec named(String name) {
    return switch (name) {
      case "standard" -> standardMix();
      case "light" -> lightMix();
      default -> throw Invalid.value("workload", name, "is not a built-in workload", "use standard or light");
    };
  }
}
