package org.rampa.examples.cli;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.rampa.domain.Invalid;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * Checks shared by every command: an option the chosen mode does not use is an error naming it
 * (silently ignoring it would answer a question nobody asked), a list option names each value once,
 * and a time limit in seconds is one the planners can keep.
 */
final class OptionChecks {
  /** The shortest time limit in seconds: below it a limit rounds to nothing a solver can use. */
  static final double MIN_SECONDS = 1e-3;

  private OptionChecks() {}

  /** Refuses the first of {@code options} given on the command line, saying it does not apply {@code mode}. */
  static void refuseUnused(CommandSpec spec, String mode, String hint, String... options) {
    ParseResult given = spec.commandLine().getParseResult();
    for (String option : options) {
      if (given.hasMatchedOption(option)) {
        throw Invalid.value(option, value(given, option), "does not apply " + mode, hint);
      }
    }
  }

  /** Whether {@code option} was given on the command line (rather than taking its default). */
  static boolean given(CommandSpec spec, String option) {
    return spec.commandLine().getParseResult().hasMatchedOption(option);
  }

  private static String value(ParseResult given, String option) {
    List<String> values = given.matchedOption(option).stringValues();
    return values.isEmpty() ? "(given)" : String.join(",", values);
  }

  /** Refuses a list option that names a value twice: it would count the value twice, as a second seed or series. */
  static <T> void requireDistinct(String option, List<T> values) {
    Set<T> seen = new HashSet<>();
    for (T v : values) {
      if (!seen.add(v)) {
        throw Invalid.value(option, v, "is listed twice", "name each value once");
      }
    }
  }

  /** A time limit of {@code seconds} in [{@value #MIN_SECONDS}, {@code max}] as a duration. */
  static Duration seconds(String option, double seconds, double max) {
    if (!(seconds >= MIN_SECONDS && seconds <= max)) {
      throw Invalid.value(option, seconds, "must lie in [" + MIN_SECONDS + ", " + (long) max + "] seconds"
          + (seconds > 0 && seconds < MIN_SECONDS ? ": a shorter limit rounds to no time at all" : ""), option + " 10");
    }
    return Duration.ofNanos(Math.round(seconds * 1e9));
  }
}
