package org.rampa.strategy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.perf.share.TierMargins;

/**
 * Whether a per-service strategy may place stages on shared GPUs, and how wide the menu of
 * {@code SharedSlotMenu} is, read once from {@link StrategyOptions#extra()} by the strategies that
 * support sharing (their option families include {@link #KEYS}). Sharing is opt-in: without the
 * {@code sharing} key a strategy places whole free GPUs exactly as it always did.
 *
 * <ul>
 *   <li>{@code sharing}: {@code off} (default) or {@code on};
 *   <li>{@code sharingMpsLevels}: the MPS shares offered on GPUs nobody holds, as {@code 1/n} fractions
 *       separated by commas (default {@code 1/2,1/3,1/4}; the whole GPU is always offered);
 *   <li>{@code sharingTopK}: how many partly used GPUs per GPU type and placement shape the menu keeps,
 *       best fit first (default 4);
 *   <li>{@code sharingMargin}: the planning margin on share-tier times, as {@code colocate --margin}
 *       takes it: {@code default} (each tier's margin from its own measured error,
 *       {@link TierMargins#defaults()}; the default here, {@link #DEFAULT_MARGIN}, as in {@code colocate}),
 *       {@code none} (the nominal times, as before issue 24), or one fraction for every tier ({@code 0.1}).
 *       Only shared stages are timed by the share tiers, so with sharing off it changes nothing.
 * </ul>
 *
 * @param enabled whether shares may be placed at all
 * @param mpsLevels the MPS fractions offered on GPUs nobody holds, largest first, each in (0, 1)
 * @param topK partly used GPUs kept per GPU type and placement shape, at least 1
 * @param margin the planning margin's text: {@code default}, {@code none} or a fraction
 */
public record SharingOptions(boolean enabled, List<Double> mpsLevels, int topK, String margin) {

  /** The option keys a strategy family that supports sharing must accept. */
  public static final Set<String> KEYS = Set.of("sharing", "sharingMpsLevels", "sharingTopK", "sharingMargin");

  /**
   * The default planning margin of sharing plans: each share tier's margin from its own measured
   * error, as {@code colocate}'s default, so that a plan on shared GPUs keeps its SLO when the tier
   * errs as it was measured to. The planner, the verifying step, the admission guard and the
   * simulator's audit all read it from the options ({@link PlacementProblem#performanceFor}), so a
   * run judges every plan under the margin it was made under. {@code none} plans on the nominal times.
   */
  public static final String DEFAULT_MARGIN = "default";

  /** The default MPS levels: harmonic shares 1/2, 1/3, 1/4. */
  public static final List<Double> DEFAULT_MPS_LEVELS = List.of(1.0 / 2, 1.0 / 3, 1.0 / 4);

  /** The default number of partly used GPUs kept per type and placement shape. */
  public static final int DEFAULT_TOP_K = 4;

  /** Checks the levels and the bound, and keeps the levels largest first without repeats. */
  public SharingOptions {
    List<Double> sorted = new ArrayList<>();
    for (double level : Invalid.listOf("options.extra.sharingMpsLevels", mpsLevels)) {
      // a level is written and read back as 1/n (asExtra, of): any other fraction would not survive the round trip
      long n = level > 0 && level < 1 ? Math.round(1 / level) : -1;
      if (n < 2 || n > GpuPartitioning.MPS_CLIENTS_PER_GPU || level != 1.0 / n) {
        throw Invalid.value("options.extra.sharingMpsLevels", level,
            "every level must be exactly 1/n with an integer n in [2, " + GpuPartitioning.MPS_CLIENTS_PER_GPU + "]", "1.0 / 3 for a third");
      }
      if (!sorted.contains(level)) {
        sorted.add(level);
      }
    }
    sorted.sort((a, b) -> Double.compare(b, a));
    mpsLevels = List.copyOf(sorted);
    if (topK < 1) {
      throw Invalid.value("options.extra.sharingTopK", topK, "must be an integer >= 1");
    }
    margin = Invalid.requireNonNull("options.extra.sharingMargin", margin).trim();
    TierMargins.parse("options.extra.sharingMargin", margin); // refused here, naming the key, not at the first plan
  }

  /** These settings with the default planning margin. */
  public SharingOptions(boolean enabled, List<Double> mpsLevels, int topK) {
    this(enabled, mpsLevels, topK, DEFAULT_MARGIN);
  }

  /** The same settings planning with {@code newMargin} ({@code default}, {@code none} or a fraction such as {@code 0.1}). */
  public SharingOptions withMargin(String newMargin) {
    return new SharingOptions(enabled, mpsLevels, topK, newMargin);
  }

  /**
   * The margins shared stages are planned and verified under: {@link #margin()} parsed, and none
   * while sharing is off (no stage is then timed by a share tier).
   */
  public TierMargins margins() {
    return enabled ? TierMargins.parse("options.extra.sharingMargin", margin) : TierMargins.none();
  }

  /** Sharing off: whole free GPUs only. */
  public static SharingOptions off() {
    return new SharingOptions(false, DEFAULT_MPS_LEVELS, DEFAULT_TOP_K);
  }

  /** Sharing on with the default menu. */
  public static SharingOptions on() {
    return new SharingOptions(true, DEFAULT_MPS_LEVELS, DEFAULT_TOP_K);
  }

  /**
   * The sharing settings among {@code extra}, which the strategy family read with {@link #KEYS}
   * among its known keys.
   *
   * @throws IllegalArgumentException naming the key, the value and the rule when a value is malformed
   */
  public static SharingOptions of(ExtraOptions extra) {
    boolean enabled = extra.choice("sharing", "off", List.of("off", "on")).equals("on");
    List<Double> levels = extra.text("sharingMpsLevels").map(SharingOptions::parseLevels).orElse(DEFAULT_MPS_LEVELS);
    return new SharingOptions(enabled, levels, extra.positiveInt("sharingTopK", DEFAULT_TOP_K), extra.text("sharingMargin").orElse(DEFAULT_MARGIN));
  }

  /** The sharing settings among {@code options}' extra options, the other strategy options left aside. */
  public static SharingOptions in(StrategyOptions options) {
    Map<String, String> sharing = new LinkedHashMap<>(options.extra());
    sharing.keySet().retainAll(KEYS);
    return of(ExtraOptions.of(ImmutableStrategyOptions.copyOf(options).withExtra(sharing), "sharing", KEYS));
  }

  /**
   * These settings as {@link StrategyOptions#extra()} entries, so a caller (the fluent API, a
   * scheduler, a simulator) can pass them to any strategy that supports sharing; empty when off
   * with the default menu, so options without sharing stay exactly as they were.
   */
  public Map<String, String> asExtra() {
    Map<String, String> out = new LinkedHashMap<>();
    if (enabled) {
      out.put("sharing", "on");
    }
    if (!mpsLevels.equals(DEFAULT_MPS_LEVELS)) {
      out.put("sharingMpsLevels", mpsLevels.stream().map(l -> "1/" + Math.round(1 / l)).collect(Collectors.joining(",")));
    }
    if (topK != DEFAULT_TOP_K) {
      out.put("sharingTopK", Integer.toString(topK));
    }
    if (!margin.equals(DEFAULT_MARGIN)) {
      out.put("sharingMargin", margin);
    }
    return out;
  }

  /** {@code options} with these settings added to its extra options. */
  public StrategyOptions applyTo(StrategyOptions options) {
    Map<String, String> extra = new LinkedHashMap<>(options.extra());
    KEYS.forEach(extra::remove);
    extra.putAll(asExtra());
    return ImmutableStrategyOptions.copyOf(options).withExtra(extra);
  }

  private static List<Double> parseLevels(String text) {
    List<Double> levels = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String p = part.trim();
      int n = -1;
      if (p.startsWith("1/")) {
        try {
          n = Integer.parseInt(p.substring(2).trim());
        } catch (NumberFormatException e) {
          n = -1; // reported below with the rule
        }
      }
      if (n < 2 || n > GpuPartitioning.MPS_CLIENTS_PER_GPU) {
        throw Invalid.value("options.extra.sharingMpsLevels", text,
            "must list fractions 1/n with an integer n in [2, " + GpuPartitioning.MPS_CLIENTS_PER_GPU + "], separated by commas",
            "e.g. \"1/2,1/3,1/4\"");
      }
      levels.add(1.0 / n);
    }
    return levels;
  }
}
