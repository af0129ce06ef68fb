package org.rampa.examples.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.Rampa;
import org.rampa.catalog.GpuCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServiceRequest;
import org.rampa.examples.sim.DefragPolicy;
import org.rampa.examples.sim.DefragTrigger;
import org.rampa.examples.sim.Scheduler;
import org.rampa.examples.sim.SchedulerSpec;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.heuristics.importance.Placeability;
import org.rampa.heuristics.importance.SlidingWindowForecast;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;

/**
 * The schedulers the experiment compares, by name: the baselines ("performance-first",
 * "fewest-gpus", "even-split", "compute-balanced", "first-fit") and RAMPA as
 * "rampa-{greedy|dp|exact}/{importance}" with importance one of {@link #IMPORTANCES}, and any
 * RAMPA planner whose strategy can share GPUs with {@value #SHARING_SUFFIX} appended (and then
 * {@value #MOVES_SUFFIX}, to admit with moves, and {@value #DEFRAG_SUFFIX}N, to defragment in quiet periods).
 *
 * <p>Forecast-driven importances (scarcity, marginal loss) learn the workload online from a
 * sliding window of the last {@value #FORECAST_WINDOW} arrivals; nothing is told in advance.
 */
public final class Schedulers {

  public static final List<String> BASELINES =
      List.of("performance-first", "fewest-gpus", "even-split", "compute-balanced", "first-fit");

  public static final List<String> IMPORTANCES =
      List.of("uniform", "price", "capability", "fragmentation", "scarcity", "marginal-loss", "scarcity+fragmentation");

  static final int FORECAST_WINDOW = 200;
  private static final int MARGINAL_SAMPLES = 64;

  private Schedulers() {}

  /**
   * The default comparison: every baseline and greedy RAMPA with every importance; with
   * {@code full}, also exact RAMPA with capability importance, whose time-limited solves take
   * minutes where the rest takes seconds.
   */
  public static List<String> defaults(boolean full) {
    List<String> names = new ArrayList<>(BASELINES);
    for (String importance : IMPORTANCES) {
      names.add("rampa-greedy/" + importance);
    }
    if (full) {
      names.add("rampa-exact/capability");
    }
    return names;
  }

  /**
   * Appended to a RAMPA planner's name, lets it place services on parts of GPUs next to others (the
   * strategies' {@code sharing} option on, default menu): "rampa-greedy/scarcity+sharing".
   */
  public static final String SHARING_SUFFIX = "+sharing";

  /**
   * Appended to a sharing planner's name ("rampa-greedy/capability+sharing+moves"), lets the simulator
   * admit an arrival the planner refuses after at most {@link #DEFAULT_MOVE_BUDGET} moves found by the
   * heuristic mover (issue 25).
   */
  public static final String MOVES_SUFFIX = "+moves";

  /** The move budget of a "+moves" planner per refused arrival. */
  public static final int MOVE_BUDGET = 2;

  /**
   * Appended to a sharing planner's name with a budget N in [1, 16] ("rampa-greedy/capability+sharing+moves+defrag2"),
   * lets the simulator defragment the cluster with at most N moves after departures, before the next
   * arrival is planned ({@link Scheduler#defragBudget()}); "+defrag2-refusal" only after an arrival was
   * refused since the last defragmentation ({@link DefragTrigger#REFUSAL}), "+defrag2-hybrid" every quiet
   * period but migrating only after a refusal ({@link DefragTrigger#HYBRID}), and a trailing
   * {@value DefragPolicy#PIPELINES_SUFFIX} weighs pipelines in the forecast and a trailing
   * {@value DefragPolicy#GUARDED_SUFFIX} guards its room ({@link Scheduler#defragPolicy()}).
   */
  public static final String DEFRAG_SUFFIX = "+defrag";

  /** Every defragmentation policy by what a scheduler's name carries after its budget ({@link DefragPolicy#suffix()}). */
  private static final Map<String, DefragPolicy> DEFRAG_POLICIES = defragPolicies();

  private static Map<String, DefragPolicy> defragPolicies() {
    Map<String, DefragPolicy> bySuffix = new LinkedHashMap<>();
    for (DefragTrigger trigger : DefragTrigger.values()) {
      for (boolean pipelines : new boolean[] {false, true}) {
        for (boolean guarded : new boolean[] {false, true}) {
          DefragPolicy policy = new DefragPolicy(trigger, pipelines, guarded);
          bySuffix.put(policy.suffix(), policy);
        }
      }
    }
    return Map.copyOf(bySuffix);
  }

  /** What follows {@value #DEFRAG_SUFFIX} in a scheduler's name: the budget's digits, then a policy's suffix ("2-refusal-guarded"). */
  private record DefragTail(String digits, DefragPolicy policy) {

    /** {@code tail} read as a budget and a policy, or null when it is not one. */
    static DefragTail of(String tail) {
      int digits = 0;
      while (digits < tail.length() && tail.charAt(digits) >= '0' && tail.charAt(digits) <= '9') {
        digits++;
      }
      DefragPolicy policy = DEFRAG_POLICIES.get(tail.substring(digits));
      return digits > 0 && policy != null ? new DefragTail(tail.substring(0, digits), policy) : null;
    }
  }

  /** True when the scheduler called {@code name} admits with moves ({@value #MOVES_SUFFIX}, with or without defragmentation). */
  public static boolean withMoves(String name) {
    return withoutDefrag(name).endsWith(MOVES_SUFFIX);
  }

  /** {@code name} without its {@value #DEFRAG_SUFFIX}N suffix, if any. */
  public static String withoutDefrag(String name) {
    int at = name.lastIndexOf(DEFRAG_SUFFIX);
    return at >= 0 && DefragTail.of(name.substring(at + DEFRAG_SUFFIX.length())) != null ? name.substring(0, at) : name;
  }

  /** The RAMPA strategies that can place shares ({@link SharingOptions}); the baselines hold whole GPUs. */
  public static final List<String> SHARING_STRATEGIES = List.of("greedy", "dp", "exact");

  /** True when {@code name} (a planner without {@value #SHARING_SUFFIX}) can run with sharing on. */
  public static boolean canShare(String name) {
    String[] parts = name.split("/", 2);
    return parts.length == 2 && parts[0].startsWith("rampa-") && SHARING_STRATEGIES.contains(parts[0].substring("rampa-".length()));
  }

  /**
   * {@code options} with the strategies' sharing option on, default menu, planning under the margin
   * {@code options} name ({@code sharingMargin}; the default margins when they name none).
   */
  private static StrategyOptions sharingOn(StrategyOptions options) {
    return SharingOptions.on().withMargin(SharingOptions.in(options).margin()).applyTo(options);
  }

  /**
   * {@code options} without sharing settings, for a planner on whole GPUs: a margin meant for the
   * sharing planners of the same run is no option of a baseline's strategy, and changes nothing on
   * whole GPUs.
   */
  private static StrategyOptions wholeGpus(StrategyOptions options) {
    return SharingOptions.off().applyTo(options);
  }

  /**
   * The scheduler called {@code name}, its strategies configured with {@code options}; a name ending
   * in {@value #SHARING_SUFFIX} is that planner with sharing on, under the planning margin
   * {@code options} name ({@code sharingMargin}, {@link SharingOptions#DEFAULT_MARGIN} when absent).
   */
  public static SchedulerSpec named(String name, StrategyOptions options) {
    String defragged = withoutDefrag(name);
    if (!defragged.equals(name)) {
      DefragTail tail = DefragTail.of(name.substring(defragged.length() + DEFRAG_SUFFIX.length())); // not null: withoutDefrag read it
      String digits = tail.digits();
      DefragPolicy policy = tail.policy();
      int budget = digits.length() > 2 ? Integer.MAX_VALUE : Integer.parseInt(digits);
      if (budget < 1 || budget > org.rampa.moves.MoveProblem.MAX_BUDGET) {
        throw Invalid.value("planner", name, "the defragmentation budget must lie in [1, " + org.rampa.moves.MoveProblem.MAX_BUDGET + "]",
            "rampa-greedy/capability" + SHARING_SUFFIX + MOVES_SUFFIX + DEFRAG_SUFFIX + "2");
      }
      if (!defragged.endsWith(SHARING_SUFFIX) && !defragged.endsWith(MOVES_SUFFIX)) {
        throw Invalid.value("planner", name, "defragmentation needs a sharing planner", "rampa-greedy/capability" + SHARING_SUFFIX + DEFRAG_SUFFIX + "2");
      }
      SchedulerSpec inner = named(defragged, options);
      return new SchedulerSpec(name, cluster -> {
        Scheduler s = inner.create(cluster);
        return new Scheduler() {
          @Override
          public Rampa.Placer placer() {
            return s.placer();
          }

          @Override
          public int moveBudget() {
            return s.moveBudget();
          }

          @Override
          public int defragBudget() {
            return budget;
          }

          @Override
          public DefragPolicy defragPolicy() {
            return policy;
          }

          @Override
          public void observe(ServiceRequest arrival) {
            s.observe(arrival);
          }
        };
      }, true);
    }
    if (name.endsWith(MOVES_SUFFIX)) {
      String base = name.substring(0, name.length() - MOVES_SUFFIX.length());
      if (!base.endsWith(SHARING_SUFFIX)) {
        throw Invalid.value("planner", name, "moves need a sharing planner", "rampa-greedy/capability" + SHARING_SUFFIX + MOVES_SUFFIX);
      }
      SchedulerSpec sharing = named(base, options);
      return new SchedulerSpec(name, cluster -> {
        Scheduler inner = sharing.create(cluster);
        return new Scheduler() {
          @Override
          public Rampa.Placer placer() {
            return inner.placer();
          }

          @Override
          public int moveBudget() {
            return MOVE_BUDGET;
          }

          @Override
          public void observe(ServiceRequest arrival) {
            inner.observe(arrival);
          }
        };
      }, true);
    }
    if (name.endsWith(SHARING_SUFFIX)) {
      String base = name.substring(0, name.length() - SHARING_SUFFIX.length());
      if (!canShare(base)) {
        throw Invalid.value("planner", name, "cannot share GPUs: " + base + " places whole GPUs only",
            "sharing is offered by rampa-{" + String.join("|", SHARING_STRATEGIES) + "}/{importance}" + SHARING_SUFFIX);
      }
      return new SchedulerSpec(name, planner(base, sharingOn(options)).factory(), true);
    }
    return planner(name, wholeGpus(options));
  }

  /** The baseline or RAMPA planner called {@code name} (no suffix), its strategies configured with {@code options} as given. */
  private static SchedulerSpec planner(String name, StrategyOptions options) {
    if (BASELINES.contains(name)) {
      return new SchedulerSpec(name, cluster -> {
        Rampa.Placer planner = configured(cluster, name, StaticImportance.uniform(), options);
        return () -> planner;
      });
    }
    String[] parts = name.split("/", 2);
    if (parts.length != 2 || !parts[0].startsWith("rampa-") || !IMPORTANCES.contains(parts[1])) {
      throw Invalid.value("planner", name, "is not a known planner",
          "use a baseline " + BASELINES + " or rampa-{greedy|dp|exact}/{" + String.join("|", IMPORTANCES) + "}, with "
              + SHARING_SUFFIX + " appended to share GPUs");
    }
    String strategy = parts[0].substring("rampa-".length());
    Strategies.named(strategy); // fails fast, naming the available strategies
    return new SchedulerSpec(name, cluster -> new LearningScheduler(strategy, parts[1], cluster, options));
  }

  private static Rampa.Placer configured(Cluster cluster, String strategy, ImportanceModel importance, StrategyOptions options) {
    return Rampa.on(cluster).strategy(strategy).importance(importance).options(options);
  }

  /** A RAMPA scheduler whose importance may learn from a sliding window of recent arrivals. */
  private static final class LearningScheduler implements Scheduler {
    private final SlidingWindowForecast window = SlidingWindowForecast.lastArrivals(FORECAST_WINDOW);
    private final Rampa.Placer planner;

    LearningScheduler(String strategy, String importance, Cluster cluster, StrategyOptions options) {
      this.planner = configured(cluster, strategy, importance(importance, cluster), options);
    }

    private ImportanceModel importance(String name, Cluster cluster) {
      PerformanceModel pm = PerformanceModel.defaults();
      return switch (name) {
        case "uniform" -> StaticImportance.uniform();
        case "price" -> StaticImportance.byType(pricePerHour(cluster));
        case "capability" -> ImportanceModels.capability();
        case "fragmentation" -> ImportanceModels.fragmentation();
        case "scarcity" -> ImportanceModels.scarcity(window::snapshot, pm);
        case "marginal-loss" -> ImportanceModels.marginalAcceptanceLoss(window::snapshot, Placeability.singleType(pm), MARGINAL_SAMPLES, 1);
        case "scarcity+fragmentation" -> ImportanceModels.combination()
            .add(1.0, ImportanceModels.scarcity(window::snapshot, pm))
            .add(0.25, ImportanceModels.fragmentation())
            .build();
        default -> throw Invalid.value("importance", name, "unknown");
      };
    }

    @Override
    public Rampa.Placer placer() {
      return planner;
    }

    @Override
    public void observe(ServiceRequest arrival) {
      window.observe(arrival);
    }
  }

  /**
   * The catalog's hourly price per GPU type as static importance (what a GPU-hour of the type costs
   * to rent); types without a price get the mean of the priced ones.
   */
  static Map<String, Double> pricePerHour(Cluster cluster) {
    GpuCatalog catalog = GpuCatalog.standard();
    Map<String, Double> prices = new LinkedHashMap<>();
    for (GpuType t : cluster.gpuTypes()) {
      if (catalog.ids().contains(t.name()) && catalog.entry(t.name()).pricePerHourUsd().isPresent()) {
        prices.put(t.name(), catalog.entry(t.name()).pricePerHourUsd().getAsDouble());
      }
    }
    double mean = prices.values().stream().mapToDouble(Double::doubleValue).average().orElse(1.0);
    for (GpuType t : cluster.gpuTypes()) {
      prices.putIfAbsent(t.name(), mean);
    }
    return prices;
  }
}
