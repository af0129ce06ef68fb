package org.rampa.solver.backend;

import java.util.ArrayList;
import java.util.List;

/**
 * A mixed-integer linear programme in solver-neutral form: integer (and, for SCIP and GLOP,
 * continuous) variables with bounds, linear rows with bounds, and a linear objective to minimise
 * (or, for SCIP and GLOP, maximise). The interval-flow formulation and the co-location planner write
 * it once and each {@link MilpBackend} translates it, so every backend solves the very same model.
 *
 * <p>Immutable: written through a {@link Builder}.
 */
public final class LinearProgram {

  /**
   * A variable in {@code [lower, upper]} (infinite: unbounded on that side), integer or continuous.
   * Printed with an integer variable's bounds as integers, a continuous one marked so.
   */
  public record Variable(String name, double lower, double upper, boolean integer) {
    @Override
    public String toString() {
      return integer ? "Variable[name=" + name + ", lower=" + (long) lower + ", upper=" + (long) upper + "]"
          : "Variable[name=" + name + ", lower=" + lower + ", upper=" + upper + ", continuous]";
    }
  }

  /** One coefficient of a row. */
  public record Term(int variable, double coefficient) {}

  /**
   * {@code lower <= sum(terms) <= upper}. {@code integral} rows have integer coefficients and
   * bounds; the others (latency, in seconds) need scaling for solvers that only take integers.
   */
  public record Row(String name, double lower, double upper, List<Term> terms, boolean integral) {}

  private final List<Variable> variables;
  private final List<Row> rows;
  private final double[] objective;
  private final boolean maximise;

  private LinearProgram(List<Variable> variables, List<Row> rows, double[] objective, boolean maximise) {
    this.variables = List.copyOf(variables);
    this.rows = List.copyOf(rows);
    this.objective = objective;
    this.maximise = maximise;
  }

  /** Writes a programme variable by variable and row by row; {@link #build} fixes it. */
  public static final class Builder {
    private final List<Variable> variables = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();
    private final List<Double> objective = new ArrayList<>();
    private boolean maximise;

    /** A new integer variable in {@code [lower, upper]}; returns its index, the count of variables before it. */
    public int addVariable(String name, long lower, long upper) {
      return add(new Variable(lpName(name), lower, upper, true));
    }

    /** A new integer variable in {@code [lower, upper]} (infinite: unbounded), as {@link #addVariable(String, long, long)}. */
    public int addInteger(String name, double lower, double upper) {
      return add(new Variable(lpName(name), lower, upper, true));
    }

    /** A new continuous variable in {@code [lower, upper]} (infinite: unbounded); CP-SAT refuses programmes with one. */
    public int addContinuous(String name, double lower, double upper) {
      return add(new Variable(lpName(name), lower, upper, false));
    }

    /** A copy of {@code v} (from another programme) as the next variable. */
    public int add(Variable v) {
      variables.add(v);
      objective.add(0.0);
      return variables.size() - 1;
    }

    /** The objective is to be maximised rather than minimised; CP-SAT refuses such programmes. */
    public void maximise() {
      maximise = true;
    }

    public void setObjective(int variable, double coefficient) {
      objective.set(variable, coefficient);
    }

    public void addRow(String name, double lower, double upper, List<Term> terms) {
      boolean integral = isInteger(lower) && isInteger(upper);
      for (Term t : terms) {
        integral &= isInteger(t.coefficient());
      }
      rows.add(new Row(lpName(name), lower, upper, List.copyOf(terms), integral));
    }

    public int variableCount() {
      return variables.size();
    }

    /** The programme as written so far; the builder may go on, the programme does not change. */
    public LinearProgram build() {
      return new LinearProgram(variables, rows, objective.stream().mapToDouble(Double::doubleValue).toArray(), maximise);
    }
  }

  /**
   * Names as LP files accept them (GPU type names such as "A100-80GB" carry operators): every code
   * point other than an ASCII letter, digit or underscore becomes one underscore. By hand rather
   * than with a regex: a shared model names tens of thousands of variables.
   */
  private static String lpName(String name) {
    StringBuilder out = null;
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      int next = i + Character.charCount(c);
      boolean plain = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_';
      if (!plain && out == null) {
        out = new StringBuilder(name.length()).append(name, 0, i);
      }
      if (out != null) {
        out.append(plain ? (char) c : '_');
      }
      i = next;
    }
    return out == null ? name : out.toString();
  }

  private static boolean isInteger(double v) {
    return Double.isInfinite(v) || v == Math.rint(v);
  }

  public List<Variable> variables() {
    return variables;
  }

  public List<Row> rows() {
    return rows;
  }

  public double objective(int variable) {
    return objective[variable];
  }

  public int variableCount() {
    return variables.size();
  }

  /** Whether the objective is maximised (else minimised). */
  public boolean maximises() {
    return maximise;
  }

  /** Whether every variable is integer (CP-SAT takes only such programmes). */
  public boolean allInteger() {
    return variables.stream().allMatch(Variable::integer);
  }

  /**
   * Whether {@code values} (one per variable) keeps every variable's bounds and every row, to
   * SCIP's feasibility tolerance (1e-9, relative above 1).
   */
  public boolean admits(double[] values) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] < variables.get(i).lower() || values[i] > variables.get(i).upper()) {
        return false;
      }
    }
    for (Row row : rows) {
      double sum = 0;
      for (Term t : row.terms()) {
        sum += t.coefficient() * values[t.variable()];
      }
      double slack = 1e-9 * Math.max(1, Math.abs(sum));
      if (sum < row.lower() - slack || sum > row.upper() + slack) {
        return false;
      }
    }
    return true;
  }

  /** The objective at {@code values}. */
  public double objectiveValue(double[] values) {
    double sum = 0;
    for (int i = 0; i < values.length; i++) {
      sum += objective[i] * values[i];
    }
    return sum;
  }
}
