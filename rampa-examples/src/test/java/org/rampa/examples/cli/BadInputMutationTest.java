package org.rampa.examples.cli;

import static org.rampa.examples.cli.BadInputs.assertClean;
import static org.rampa.examples.cli.BadInputs.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.testing.Property;

/**
 * The generated half of the bad-input suite: valid documents of every kind the command line reads
 * (problem, workload, trace, PipeDream profile, Tarnawski graph, demand and cluster CSV, policy
 * weights, problem with placements and MIG layouts, a plan to verify), mutated at random places from a
 * seed (JSON: one to three fields dropped, set to null, to another type or to an extreme number;
 * text: a line cut, repeated or given a bad token), must get a clean answer: exit 0, 2 or (verify) 3, never an
 * internal error or a stack trace.
 */
class BadInputMutationTest {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** Replacement values: other types, extremes, and numbers just outside what each field accepts. */
  private static final List<Supplier<JsonNode>> REPLACEMENTS = List.of(
      JSON::nullNode, () -> JSON.textNode(""), () -> JSON.textNode("x"), () -> JSON.textNode("12"), () -> JSON.booleanNode(true),
      JSON::objectNode, JSON::arrayNode, () -> JSON.numberNode(0), () -> JSON.numberNode(-1), () -> JSON.numberNode(1.5),
      () -> JSON.numberNode(1e308), () -> JSON.numberNode(-1e308), () -> JSON.numberNode(Long.MAX_VALUE),
      () -> JSON.numberNode(Integer.MIN_VALUE), () -> JSON.numberNode(new BigDecimal("1e999")),
      () -> JSON.numberNode(new BigInteger("99999999999999999999")), () -> JSON.textNode("PT1000000000000000S"));

  private static final List<String> BAD_TOKENS = List.of("-", "NaN", "Infinity", "1e999", "-1", "", "x", "1.5", "99999999999999999999");

  @TempDir
  Path dir;

  @Test
  void mutatedDocumentsGetACleanAnswer() {
    // the experiment commands' inputs are read and checked before their --out, which is a file here: a valid mutation ends there, unplanned
    Path notAFolder = write(dir, "not-a-folder", "x");
    Path problemFile = write(dir, "verify-problem.json", BadInputs.problem().toString());
    BadInputs.Run planned = BadInputs.run("plan", problemFile.toString());
    JsonNode plan = BadInputs.tree(planned.out()).get("plan");
    BadInputs.Run valid = BadInputs.run("colocate", "--cluster-file", write(dir, "cluster.csv", BadInputs.CLUSTER_CSV).toString(), "--demand",
        write(dir, "demand.csv", BadInputs.DEMAND_CSV).toString(), "--out", notAFolder.toString());
    org.assertj.core.api.Assertions.assertThat(valid.err()).as("the unmutated CSV inputs pass, and only --out stops the run").contains("--out = ");
    org.assertj.core.api.Assertions.assertThat(BadInputs.run("plan", write(dir, "shared.json", BadInputs.sharedProblem().toString()).toString()).code())
        .as("the unmutated shared problem plans").isZero();
    Property.forSeeds("a mutated input document gets exit 0, 2 or (verify) 3 and no stack trace", 400, seed -> {
      SplittableRandom random = new SplittableRandom(seed);
      String[] args = switch ((int) (seed % 10)) {
        case 5 -> new String[] {"colocate", "--cluster-file", write(dir, "cluster.csv", BadInputs.CLUSTER_CSV).toString(), "--demand",
            write(dir, "demand.csv", mutateLines(BadInputs.DEMAND_CSV, ",", random)).toString(), "--out", notAFolder.toString()};
        case 6 -> new String[] {"colocate", "--cluster-file", write(dir, "cluster.csv", mutateLines(BadInputs.CLUSTER_CSV, ",", random)).toString(),
            "--demand", write(dir, "demand.csv", BadInputs.DEMAND_CSV).toString(), "--out", notAFolder.toString()};
        case 7 -> new String[] {"evaluate-policy", "--policy",
            write(dir, "policy.json", mutate(BadInputs.tree(BadInputs.shippedPolicy()), random).toString()).toString(), "--out", dir.toString()};
        case 8 -> new String[] {"plan", write(dir, "shared.json", mutate(BadInputs.sharedProblem(), random).toString()).toString()};
        case 9 -> new String[] {"verify", "--problem", problemFile.toString(), "--plan",
            write(dir, "plan.json", mutate(plan.deepCopy(), random).toString()).toString()};
        case 0 -> {
          ObjectNode problem = BadInputs.problem();
          yield new String[] {"plan", write(dir, "problem.json", mutate(problem, random).toString()).toString()};
        }
        case 1 -> simulate("--workload", write(dir, "workload.json", mutate(BadInputs.tree(BadInputs.WORKLOAD), random).toString()));
        case 2 -> simulate("--workload", write(dir, "workload.json", BadInputs.WORKLOAD),
            "--trace", write(dir, "trace.csv", mutateLines(BadInputs.TRACE, ",", random)));
        case 3 -> new String[] {"split", "--pipedream", write(dir, "p.graph.txt", mutateLines(BadInputs.PIPEDREAM, "[=,;\\[\\] ]", random)).toString(),
            "--devices", "2"};
        default -> new String[] {"split", "--tarnawski",
            write(dir, "graph.json", mutate(BadInputs.tree(BadInputs.TARNAWSKI), random).toString()).toString(), "--devices", "2"};
      };
      assertClean(BadInputs.run(args), String.join(" ", args));
    });
  }

  private String[] simulate(Object... more) {
    List<String> a = new ArrayList<>(List.of("simulate", "--planners", "first-fit", "--out", dir.resolve("out").toString()));
    if (!List.of(more).contains("--trace")) { // a trace gives the arrivals and the load itself
      a.addAll(List.of("--loads", "4", "--arrivals", "5"));
    }
    for (Object o : more) {
      a.add(o.toString());
    }
    return a.toArray(String[]::new);
  }

  /** One to three random nodes of the tree (not the root), each dropped or replaced. */
  static JsonNode mutate(JsonNode root, SplittableRandom random) {
    for (int m = 1 + random.nextInt(3); m > 0; m--) {
      mutateOnce(root, random);
    }
    return root;
  }

  private static void mutateOnce(JsonNode root, SplittableRandom random) {
    List<JsonNode[]> slots = new ArrayList<>(); // {parent, key as text node or index as number node}
    collect(root, slots);
    if (slots.isEmpty()) { // an earlier mutation emptied the document
      return;
    }
    JsonNode[] slot = slots.get(random.nextInt(slots.size()));
    boolean drop = random.nextInt(4) == 0;
    JsonNode value = REPLACEMENTS.get(random.nextInt(REPLACEMENTS.size())).get();
    if (slot[0] instanceof ObjectNode o) {
      if (drop) {
        o.remove(slot[1].asText());
      } else {
        o.set(slot[1].asText(), value);
      }
    } else {
      ArrayNode a = (ArrayNode) slot[0];
      if (drop) {
        a.remove(slot[1].asInt());
      } else {
        a.set(slot[1].asInt(), value);
      }
    }
  }

  private static void collect(JsonNode node, List<JsonNode[]> slots) {
    if (node instanceof ObjectNode o) {
      o.fields().forEachRemaining(e -> {
        slots.add(new JsonNode[] {o, JSON.textNode(e.getKey())});
        collect(e.getValue(), slots);
      });
    } else if (node instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        slots.add(new JsonNode[] {a, JSON.numberNode(i)});
        collect(a.get(i), slots);
      }
    }
  }

  /** One line cut or repeated, or one of its tokens (between {@code separators}) replaced by a bad one. */
  static String mutateLines(String text, String separators, SplittableRandom random) {
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    int i = random.nextInt(lines.size());
    switch (random.nextInt(3)) {
      case 0 -> lines.remove(i);
      case 1 -> lines.add(i, lines.get(i));
      default -> {
        String[] tokens = lines.get(i).split("(?<=" + separators + ")|(?=" + separators + ")");
        int t = random.nextInt(tokens.length);
        tokens[t] = BAD_TOKENS.get(random.nextInt(BAD_TOKENS.size()));
        lines.set(i, String.join("", tokens));
      }
    }
    return String.join("\n", lines);
  }
}
