package org.rampa.colocation;

import java.time.Duration;
import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.perf.PerformanceModel;

/**
 * One service of a demand mix: a model served at a request rate under a latency SLO, with the batch
 * sizes and per-segment MPS process counts a planner may choose from, the memory each process
 * reserves, and a weight for the weighted-throughput objective. The model runs whole, or (when
 * {@code partitions} lists some) split into a pipeline of stages by one of them, each stage on its
 * own segments: the service is served at the rate its slowest stage serves.
 *
 * @param rate requests per second at demand scale 1
 * @param slo the latency bound a request must meet; {@link SloRule} says how much of it a segment may use
 * @param processMemoryBytes the memory one process of this service needs (weights and working memory);
 *     a process running one pipeline stage needs that less the weights of the layers it does not run
 *     ({@link #processMemoryBytes(PipelineStage)})
 * @param partitions the pipeline splits a planner may choose from besides the whole model; empty for
 *     a service that runs whole only
 */
public record ColocationService(
    String id, Model model, List<Integer> batches, List<Integer> processCounts, double rate, Duration slo, long processMemoryBytes, double weight,
    List<PipelinePartition> partitions) {

  /** A service whose model runs whole only. */
  public ColocationService(String id, Model model, List<Integer> batches, List<Integer> processCounts, double rate, Duration slo, long processMemoryBytes,
      double weight) {
    this(id, model, batches, processCounts, rate, slo, processMemoryBytes, weight, List.of());
  }

  public ColocationService {
    Invalid.requireNonBlank("service.id", id);
    String p = "service[" + id + "].";
    Invalid.requireNonNull(p + "model", model);
    batches = Invalid.listOf(p + "batches", batches);
    processCounts = Invalid.listOf(p + "processCounts", processCounts);
    requirePositiveInts(p + "batches", batches, "list the batch sizes the service may run, e.g. [1, 2, 4, 8]");
    requirePositiveInts(p + "processCounts", processCounts, "use [1] for one process per segment");
    Invalid.requireFinitePositive(p + "rate", rate);
    Invalid.requirePositive(p + "slo", slo);
    Invalid.requireNonNegative(p + "processMemoryBytes", processMemoryBytes);
    Invalid.requireFinitePositive(p + "weight", weight);
    partitions = Invalid.listOf(p + "partitions", partitions);
    for (int i = 0; i < partitions.size(); i++) {
      partitions.get(i).requireFits(p + "partitions[" + i + "].cuts", model);
    }
    if (partitions.stream().distinct().count() < partitions.size()) {
      throw Invalid.value(p + "partitions", partitions, "must not list a partition twice");
    }
  }

  /** The same service offering {@code more} pipeline partitions besides the whole model. */
  public ColocationService withPartitions(List<PipelinePartition> more) {
    return new ColocationService(id, model, batches, processCounts, rate, slo, processMemoryBytes, weight, more);
  }

  /**
   * The memory one process running {@code stage} needs (null: the whole model): the service's
   * process memory less the weights of the layers outside the stage (the stage's own weights as the
   * performance model counts them), at least nothing.
   */
  public long processMemoryBytes(PipelineStage stage) {
    if (stage == null) {
      return processMemoryBytes;
    }
    int[] range = layers(stage);
    long outside = model.totalWeightBytes() - PerformanceModel.defaults().stageWeightBytes(model, range[0], range[1]);
    return Math.max(0, processMemoryBytes - outside);
  }

  /** The layers [from, to) a segment of this service runs: the whole model, or its stage. */
  int[] layers(PipelineStage stage) {
    if (stage == null) {
      return new int[] {0, model.size()};
    }
    if (stage.partition() >= partitions.size()) {
      throw Invalid.value("segment[" + id + "].stage.partition", stage.partition(), "is not one of the service's " + partitions.size() + " partitions");
    }
    PipelinePartition part = partitions.get(stage.partition());
    if (stage.stage() >= part.stages()) {
      throw Invalid.value("segment[" + id + "].stage.stage", stage.stage(), "partition " + stage.partition() + " has " + part.stages() + " stages");
    }
    return new int[] {part.from(stage.stage()), part.to(stage.stage(), model.size())};
  }

  private static void requirePositiveInts(String field, List<Integer> values, String hint) {
    if (values.isEmpty()) {
      throw Invalid.value(field, values, "must not be empty", hint);
    }
    for (int v : values) {
      if (v < 1) {
        throw Invalid.value(field, values, "every entry must be >= 1", hint);
      }
    }
  }
}
