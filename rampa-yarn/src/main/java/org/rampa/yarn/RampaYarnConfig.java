package org.rampa.yarn;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.rampa.catalog.GpuCatalog;
import org.rampa.domain.Invalid;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.strategy.Strategies;

/**
 * The adapter's settings, read from the ResourceManager's configuration ({@code yarn-site.xml}) and
 * validated at {@code init}, so a bad value stops the ResourceManager at start with a message naming
 * the key instead of failing later inside a batch.
 */
public record RampaYarnConfig(
    String strategy,
    Duration timeLimit,
    String importance,
    GpuTypeMap gpuTypes,
    double networkGbps,
    Duration pendingTimeout) {

  public static final String PREFIX = "rampa.yarn.";
  /** Default strategy for requests that do not name one. */
  public static final String STRATEGY = PREFIX + "strategy";
  /** Time limit of one placement, ISO-8601 ({@code PT2S}). */
  public static final String TIME_LIMIT = PREFIX + "time-limit";
  /** Default importance model: {@code uniform}, {@code capability} or {@code fragmentation}. */
  public static final String IMPORTANCE = PREFIX + "importance";
  /** Node to GPU type: {@code host:port=TYPE,host=TYPE,*=TYPE}. */
  public static final String GPU_TYPES = PREFIX + "gpu-types";
  /** Bandwidth between nodes in Gbit/s. */
  public static final String NETWORK_GBPS = PREFIX + "network-gbps";
  /** How long a placed GPU group may stay without a container before the ledger frees it. */
  public static final String PENDING_TIMEOUT = PREFIX + "pending-timeout";

  public static final String DEFAULT_STRATEGY = "greedy";
  public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(2);
  public static final String DEFAULT_IMPORTANCE = "capability";
  public static final double DEFAULT_NETWORK_GBPS = 100;
  public static final Duration DEFAULT_PENDING_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration MAX_DURATION = Duration.ofHours(24);
  private static final Map<String, java.util.function.Supplier<ImportanceModel>> IMPORTANCES = Map.of(
      "uniform", StaticImportance::uniform,
      "capability", ImportanceModels::capability,
      "fragmentation", ImportanceModels::fragmentation);

  public RampaYarnConfig {
    Objects.requireNonNull(gpuTypes, "gpuTypes");
    strategy = requireStrategy(STRATEGY, strategy);
    timeLimit = requireDuration(TIME_LIMIT, timeLimit);
    importance = requireImportance(IMPORTANCE, importance);
    if (!Double.isFinite(networkGbps) || networkGbps <= 0 || networkGbps > 1e6) {
      throw Invalid.value(NETWORK_GBPS, networkGbps, "must be a bandwidth in Gbit/s in (0, 1e6]", "100 for 100G Ethernet");
    }
    pendingTimeout = requireDuration(PENDING_TIMEOUT, pendingTimeout);
  }

  /**
   * Reads and validates every key of {@code conf} (a lookup such as Hadoop's
   * {@code Configuration::get}); a missing key takes its default.
   *
   * @throws IllegalArgumentException naming the key, its value and the rule it breaks
   */
  public static RampaYarnConfig from(Function<String, String> conf) {
    return new RampaYarnConfig(
        orDefault(conf, STRATEGY, DEFAULT_STRATEGY),
        parseDuration(TIME_LIMIT, orDefault(conf, TIME_LIMIT, DEFAULT_TIME_LIMIT.toString())),
        orDefault(conf, IMPORTANCE, DEFAULT_IMPORTANCE),
        GpuTypeMap.parse(GPU_TYPES, orDefault(conf, GPU_TYPES, "")),
        parseDouble(NETWORK_GBPS, orDefault(conf, NETWORK_GBPS, Double.toString(DEFAULT_NETWORK_GBPS))),
        parseDuration(PENDING_TIMEOUT, orDefault(conf, PENDING_TIMEOUT, DEFAULT_PENDING_TIMEOUT.toString())));
  }

  /** The importance model named {@code name} (validated like {@link #IMPORTANCE}). */
  public static ImportanceModel importanceModel(String field, String name) {
    return IMPORTANCES.get(requireImportance(field, name)).get();
  }

  /** {@code name} if it names an available strategy. */
  static String requireStrategy(String field, String name) {
    if (name == null || !Strategies.available().contains(name)) {
      throw Invalid.value(field, name, "must name an available RAMPA strategy",
          "one of " + Strategies.available() + " (exact needs rampa-solver on the ResourceManager's class path)");
    }
    return name;
  }

  static String requireImportance(String field, String name) {
    if (name == null || !IMPORTANCES.containsKey(name)) {
      throw Invalid.value(field, name, "must name an importance model", "one of " + new java.util.TreeSet<>(IMPORTANCES.keySet()));
    }
    return name;
  }

  private static Duration requireDuration(String field, Duration d) {
    if (d == null || d.isNegative() || d.isZero() || d.compareTo(MAX_DURATION) > 0) {
      throw Invalid.value(field, d, "must be an ISO-8601 duration in (0, PT24H]", "PT2S for two seconds");
    }
    return d;
  }

  static Duration parseDuration(String field, String text) {
    try {
      return Duration.parse(text.trim());
    } catch (DateTimeParseException e) {
      throw Invalid.value(field, text, "must be an ISO-8601 duration in (0, PT24H]", "PT2S for two seconds");
    }
  }

  static double parseDouble(String field, String text) {
    try {
      return Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw Invalid.value(field, text, "must be a number", "100");
    }
  }

  private static String orDefault(Function<String, String> conf, String key, String fallback) {
    String v = conf.apply(key);
    return v == null || v.isBlank() ? fallback : v.trim();
  }

  /**
   * Which catalog GPU type each NodeManager carries: YARN's {@code yarn.io/gpu} is only a count. An
   * entry names a node as {@code host:port} (one NodeManager), {@code host} (every NodeManager on
   * that host) or {@code *} (every other node); the most specific entry wins.
   */
  public record GpuTypeMap(Map<String, String> entries) {
    public GpuTypeMap {
      entries = Map.copyOf(entries);
    }

    /** Parses {@code key=TYPE,key=TYPE}; {@code field} names the key in messages. */
    public static GpuTypeMap parse(String field, String text) {
      Map<String, String> map = new LinkedHashMap<>();
      if (text == null || text.isBlank()) {
        return new GpuTypeMap(map);
      }
      GpuCatalog catalog = GpuCatalog.standard();
      for (String item : text.split(",")) {
        String entry = item.trim();
        int eq = entry.indexOf('=');
        if (eq <= 0 || eq == entry.length() - 1) {
          throw Invalid.value(field, text, "entry \"" + entry + "\" must read NODE=TYPE",
              "worker1.example.com=A100-SXM4-80GB,*=T4");
        }
        String node = entry.substring(0, eq).trim().toLowerCase(Locale.ROOT);
        String type = entry.substring(eq + 1).trim();
        if (!catalog.ids().contains(type)) {
          throw Invalid.value(field, text, "GPU type \"" + type + "\" is not in the GPU catalog",
              "one of " + new java.util.TreeSet<>(catalog.ids()));
        }
        if (map.put(node, type) != null) {
          throw Invalid.value(field, text, "node \"" + node + "\" is mapped twice", "keep one entry per node");
        }
      }
      return new GpuTypeMap(map);
    }

    /** The type of the NodeManager at {@code host:port}, if the map names it, its host or a default. */
    public Optional<String> typeOf(String host, int port) {
      String h = host.toLowerCase(Locale.ROOT);
      String t = entries.get(h + ":" + port);
      if (t == null) {
        t = entries.get(h);
      }
      if (t == null) {
        t = entries.get("*");
      }
      return Optional.ofNullable(t);
    }
  }
}
