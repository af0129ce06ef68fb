package org.rampa.examples.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code rampa} command line. Exit codes: 0 success (a result without a plan included), 2 bad
 * input (the message names the problem), 1 internal error, 3 a plan {@code rampa verify} finds invalid.
 */
@Command(
    name = "rampa",
    mixinStandardHelpOptions = true,
    versionProvider = RampaCli.JarVersion.class,
    description = "Places DNN inference pipelines on heterogeneous GPU clusters at least importance-weighted cost (RAMPA).",
    subcommands = {PlanCommand.class, DefragCommand.class, PredictCommand.class, SplitCommand.class, SimulateCommand.class, ColocateCommand.class, TrainCommand.class, EvaluatePolicyCommand.class, VastPipeE1Command.class, VastPipeE3Command.class, VastPipeE4Command.class, VerifyCommand.class,
        CatalogCommand.class, PresetCommand.class, DemoCommand.class, CommandLine.HelpCommand.class})
public final class RampaCli {

  /**
   * The version the jar's manifest carries (Implementation-Version, written by the build), so the CLI
   * never reports a version other than the one it was built as.
   */
  static final class JarVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"rampa " + version(RampaCli.class.getPackage().getImplementationVersion())};
    }

    static String version(String implementationVersion) {
      return implementationVersion != null ? implementationVersion : "(development build: run from classes, not from rampa.jar)";
    }
  }

  public static final int BAD_INPUT = 2;
  public static final int INTERNAL_ERROR = 1;
  /** rampa verify: the plan breaks a rule (the violations are printed). */
  public static final int PLAN_INVALID = 3;

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs one command line and returns its exit code (for tests and embedding). */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new RampaCli());
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler((e, line, parse) -> {
      if (e instanceof IllegalArgumentException || e instanceof java.io.UncheckedIOException) {
        line.getErr().println("rampa: " + e.getMessage());
        return BAD_INPUT;
      }
      line.getErr().println("rampa: internal error: " + e);
      e.printStackTrace(line.getErr());
      return INTERNAL_ERROR;
    });
    cli.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? BAD_INPUT : INTERNAL_ERROR);
    int code = cli.execute(args);
    return code == CommandLine.ExitCode.USAGE ? BAD_INPUT : code;
  }
}
