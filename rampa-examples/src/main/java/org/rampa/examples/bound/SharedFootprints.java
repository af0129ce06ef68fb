package org.rampa.examples.bound;

import java.util.ArrayList;
import java.util.List;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.perf.DeviceKind;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageCursor;
import org.rampa.perf.TransferMode;

/**
 * For one service class, footprints with which every placement on <em>shared</em> GPUs (whole
 * GPUs, MPS shares of any fraction, MIG slices of any profile, several services per GPU) that meets
 * the class's SLO holds at least one of them: vectors of compute and memory, in GPUs, per GPU type
 * and summed over all types. The offline bound ({@link OfflineBound}) lets each admitted arrival
 * take one of them, with {@link #capacity} per component; {@link GpuCountOptions} is the whole-GPU
 * counterpart.
 *
 * <p><b>What a GPU gives.</b> The ledger (GpuRules, MpsAdmission, MigLayout) puts every GPU in one
 * mode. Exclusive: one whole holding. MPS: compute fractions summing to at most
 * {@code 1 + mpsOvercommit} (plus the ledger's 1e-9), reservations plus each process's context
 * overhead summing to at most the card's memory. MIG: instances of a legal layout, whose memory
 * slices do not overlap (so their memory-slice fractions sum to at most 1), holding memory summing
 * to at most the card's. Charge a whole holding 1 compute and 1 memory; an MPS share of fraction
 * {@code f} reserving {@code m} bytes {@code f} compute and {@code (m + overhead)/card} memory; a
 * MIG slice {@code memorySlices/cardSlices} compute and {@code m/card} memory ({@code m} at least
 * what its stage needs). On every GPU the charges sum to at most {@code 1 + overcommit} compute and
 * 1 memory, so over a type's {@code n} GPUs to at most {@code n·(1 + overcommit)} and {@code n}, and
 * over all types to the sums: the capacities.
 *
 * <p><b>The footprints.</b> Per type {@code t}: the least compute and, separately, the least memory
 * any plan with every stage on {@code t} can be charged (both counted on type {@code t} and in the
 * sums); and one more footprint for plans over several types: the least summed compute and summed
 * memory such a plan can be charged, counted in the sums only (0 on each type, which only lowers
 * it). Every plan is charged at least one of them component by component (minima over possibly
 * different plans only lower it).
 *
 * <p><b>Complete by construction.</b> A verified plan is a contiguous split into at most
 * {@code maxStages} stages; each runs on {@code r} distinct GPUs of one type with one placement,
 * holding at least the stage's memory; its throughput {@code b·r/T} and latency
 * {@code Σ T + batching wait} meet the SLO within the verifier's tolerances, {@code T} its time on
 * the placement alone times the interference slowdown (at least 1) and the planning margin's factor
 * (at least 1). The search drops transfers, interference and margins (each only adds time) and for
 * every split, type and placement takes the fewest replicas the throughput allows (more never
 * shorten the latency and only add charges), and keeps the choices whose time alone fits the
 * latency budget; it does not sum the stages' latencies (a relaxation that only admits more
 * splits), so the least charge is a shortest path over layer boundaries. Whole GPUs and every MIG profile of the type's geometry
 * are timed exactly. MPS fractions form a continuum: the interval {@code [k/G, (k+1)/G]}
 * ({@code G = }{@value #MPS_GRID}) is charged its lower end {@code k/G} and timed at its upper end
 * {@code (k+1)/G}, no more than the time of any fraction in the interval <b>under this bound's one
 * assumption: a stage's time alone on an MPS share never increases with the share</b> (more SMs
 * never slow a kernel; the analytic tier is non-increasing in the share by construction;
 * SharedFootprintsTest checks all tiers on the grid for every stage of the E4 workloads).
 *
 * <p><b>Outside the argument</b> (types offering them are refused): CU masks and NPU partition
 * templates; and MIG instances running several MPS processes of one stage (MigSliceMps), which no
 * planner or mover of the simulator creates.
 */
public final class SharedFootprints {

  /** MPS fractions are searched in intervals of 1/MPS_GRID. */
  static final int MPS_GRID = 100;

  /** The ledger's tolerance on a GPU's summed MPS compute (MpsAdmission's). */
  private static final double LEDGER_TOLERANCE = 1e-9;

  private static final PerformanceModel NO_TRANSFERS = PerformanceModel.withTransfers(TransferMode.NONE);

  private SharedFootprints() {}

  /**
   * Per type (in the order of {@link Cluster#gpuTypes()}) its compute {@code n·(1 + mpsOvercommit)}
   * ({@code n} on a type without MPS) and memory {@code n}, for its {@code n} GPUs; then both summed
   * over the types.
   */
  public static double[] capacity(Cluster cluster, double mpsOvercommit) {
    Invalid.requireFiniteNonNegative("mpsOvercommit", mpsOvercommit);
    List<GpuType> types = cluster.gpuTypes();
    double[] capacity = new double[2 * types.size() + 2];
    for (int t = 0; t < types.size(); t++) {
      GpuType type = types.get(t);
      long n = cluster.gpus().stream().map(Gpu::type).filter(type.name()::equals).count();
      capacity[2 * t] = n * ((type.partitioning().mps() ? 1 + mpsOvercommit : 1) + LEDGER_TOLERANCE);
      capacity[2 * t + 1] = n;
      capacity[2 * types.size()] += capacity[2 * t];
      capacity[2 * types.size() + 1] += n;
    }
    return capacity;
  }

  /**
   * The footprints (indexed like {@link #capacity}) of {@code request} on {@code cluster}: one per
   * type some plan fits on alone, then one for plans over several types if there are such; empty
   * when no placement on the empty cluster meets the SLO.
   */
  public static List<double[]> of(ServiceRequest request, Cluster cluster, double mpsOvercommit) {
    List<GpuType> types = cluster.gpuTypes();
    int typeCount = types.size();
    Model model = request.model();
    int batch = request.slo().batchSize();
    int layers = model.size();
    double replicasPerSecond = GpuCountOptions.replicasPerSecond(request.slo());
    double latencyBudget = GpuCountOptions.latencyBudget(request.slo());
    // every way each stage [i, j) may run on each type: seconds, compute, memory
    List<List<List<double[]>>> choices = new ArrayList<>();
    for (int i = 0; i < layers; i++) {
      List<List<double[]>> fromI = new ArrayList<>();
      for (int j = 0; j <= layers; j++) {
        fromI.add(new ArrayList<>());
      }
      choices.add(fromI);
    }
    for (int t = 0; t < typeCount; t++) {
      GpuType type = types.get(t);
      Kinds kinds = Kinds.of(type);
      long gpus = cluster.gpus().stream().map(Gpu::type).filter(type.name()::equals).count();
      for (int i = 0; i < layers; i++) {
        StageCursor c = NO_TRANSFERS.cursor(model, batch, i, kinds.all());
        while (c.canAdd()) {
          c.add();
          for (double[] choice : kinds.choices(c, replicasPerSecond, gpus, latencyBudget)) {
            choices.get(i).get(c.to()).add(new double[] {choice[0], choice[1], choice[2], t});
          }
        }
      }
    }
    double[][] least = new double[2][];
    for (int metric = 1; metric <= 2; metric++) {
      least[metric - 1] = leastCharge(choices, layers, request.maxStages(), typeCount, metric);
    }
    List<double[]> out = new ArrayList<>();
    for (int status = 0; status <= typeCount; status++) {
      if (Double.isInfinite(least[0][status])) {
        continue; // no plan of this kind meets the SLO (then neither has a memory charge)
      }
      double[] f = new double[2 * typeCount + 2];
      if (status < typeCount) {
        f[2 * status] = least[0][status];
        f[2 * status + 1] = least[1][status];
      }
      f[2 * typeCount] = least[0][status];
      f[2 * typeCount + 1] = least[1][status];
      out.add(f);
    }
    return out;
  }

  /**
   * The least charge in component {@code metric} (1 compute, 2 memory) of a split into at most
   * {@code maxStages} stages, each run by one of its choices (all within the latency budget alone):
   * per type {@code t} over splits with every stage on {@code t} (index {@code t}), and over splits
   * on several types (index {@code typeCount}); infinite where there is none. The stages' latencies
   * are not summed here (a relaxation: it admits more splits, so it can only lower the charge), which
   * makes the search a shortest path over layer boundaries, stage counts and type status.
   */
  private static double[] leastCharge(List<List<List<double[]>>> choices, int layers, int maxStages, int typeCount, int metric) {
    int statuses = typeCount + 2; // each type, several types, and "no stage yet" (typeCount + 1)
    double[][][] best = new double[layers + 1][maxStages + 1][statuses];
    for (double[][] atBoundary : best) {
      for (double[] atStages : atBoundary) {
        java.util.Arrays.fill(atStages, Double.POSITIVE_INFINITY);
      }
    }
    best[0][0][typeCount + 1] = 0;
    for (int i = 0; i < layers; i++) {
      for (int j = i + 1; j <= layers; j++) {
        // the cheapest way to run stage [i, j) on each type
        double[] cheapest = new double[typeCount];
        java.util.Arrays.fill(cheapest, Double.POSITIVE_INFINITY);
        for (double[] choice : choices.get(i).get(j)) {
          int t = (int) choice[3];
          cheapest[t] = Math.min(cheapest[t], choice[metric]);
        }
        for (int k = 0; k < maxStages; k++) {
          for (int status = 0; status < statuses; status++) {
            double so = best[i][k][status];
            if (Double.isInfinite(so)) {
              continue;
            }
            for (int t = 0; t < typeCount; t++) {
              int next = status == typeCount + 1 || status == t ? t : typeCount;
              best[j][k + 1][next] = Math.min(best[j][k + 1][next], so + cheapest[t]);
            }
          }
        }
      }
    }
    double[] least = new double[typeCount + 1];
    java.util.Arrays.fill(least, Double.POSITIVE_INFINITY);
    for (int k = 1; k <= maxStages; k++) {
      for (int status = 0; status <= typeCount; status++) {
        least[status] = Math.min(least[status], best[layers][k][status]);
      }
    }
    return least;
  }

  /**
   * The placements timed on one type: the whole GPU, MPS at every grid fraction {@code k/G}
   * ({@code k = 1..G}) when the type has MPS, every MIG profile when it has MIG.
   */
  private record Kinds(GpuType type, List<DeviceKind> all, int mpsCount, List<MigProfile> profiles, int migFrom) {

    static Kinds of(GpuType type) {
      GpuPartitioning parts = type.partitioning();
      if (parts.computeUnits() > 0 || !parts.templates().isEmpty()) {
        throw Invalid.value("cluster.gpuTypes[" + type.name() + "]", "CU masks or partition templates",
            "are outside the shared offline bound's argument", "leave the bound out for clusters with AMD or NPU types");
      }
      List<DeviceKind> all = new ArrayList<>(List.of(DeviceKind.of(type, new Whole())));
      int mpsCount = parts.mps() ? MPS_GRID : 0;
      for (int k = 1; k <= mpsCount; k++) {
        all.add(DeviceKind.of(type, new MpsShare((double) k / MPS_GRID, 0)));
      }
      List<MigProfile> profiles = parts.mig().map(MigGeometry::profiles).orElse(List.of());
      int migFrom = all.size();
      for (MigProfile p : profiles) {
        all.add(DeviceKind.of(type, new MigSlice(p.name(), p.allowedStarts().get(0))));
      }
      return new Kinds(type, List.copyOf(all), mpsCount, profiles, migFrom);
    }

    /**
     * Every way the cursor's stage may run on this type within the latency budget, each
     * {seconds, compute, memory} with the fewest replicas the throughput allows, at most {@code gpus}.
     */
    List<double[]> choices(StageCursor c, double replicasPerSecond, long gpus, double latencyBudget) {
      GpuPartitioning parts = type.partitioning();
      double card = type.memoryBytes();
      long need = c.memoryBytes();
      List<double[]> out = new ArrayList<>();
      if (c.fitsOn(all.get(0))) {
        add(out, c.seconds(0), replicasPerSecond, gpus, latencyBudget, 1, 1);
      }
      // the ledger's own rule decides whether a share holding the stage's memory fits the card at all,
      // and what memory it is charged (reservation plus the process's context)
      MpsShare lone = new MpsShare(1, need);
      if (mpsCount > 0 && MpsAdmission.strict().check(parts, List.of(lone)).isEmpty()) {
        double memory = MpsAdmission.reservedBytes(parts, lone) / card;
        for (int k = 0; k < mpsCount; k++) {
          // a share in [k/G, (k+1)/G]: at least k/G of the GPU, and (the assumption) no faster than at (k+1)/G
          add(out, c.seconds(k + 1), replicasPerSecond, gpus, latencyBudget, (double) k / MPS_GRID, memory);
        }
      }
      for (int p = 0; p < profiles.size(); p++) {
        MigProfile profile = profiles.get(p);
        if (c.fitsOn(all.get(migFrom + p))) {
          add(out, c.seconds(migFrom + p), replicasPerSecond, gpus, latencyBudget,
              (double) profile.memorySlices() / parts.requireMig().memorySlices(), need / card);
        }
      }
      return out;
    }

    /** A choice of {@code r} replicas charged {@code compute} and {@code memory} each, unless it breaks the latency or outnumbers the GPUs. */
    private static void add(List<double[]> out, double seconds, double replicasPerSecond, long gpus, double latencyBudget, double compute,
        double memory) {
      int r = GpuCountOptions.replicas(seconds, replicasPerSecond);
      if (r <= gpus && seconds <= latencyBudget) {
        out.add(new double[] {seconds, r * compute, r * memory});
      }
    }
  }
}
