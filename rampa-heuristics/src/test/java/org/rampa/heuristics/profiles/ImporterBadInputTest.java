package org.rampa.heuristics.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The importers on damaged copies of the real published files: every damage is refused with an
 * {@link IllegalArgumentException} naming the file, the line or JSON path and the field; a wrong
 * type is never read as 0.
 */
class ImporterBadInputTest {

  @TempDir
  Path dir;

  private String refusal(Runnable read) {
    Throwable t = catchThrowable(read::run);
    assertThat(t).isInstanceOf(IllegalArgumentException.class);
    return t.getMessage();
  }

  private Path damagedTarnawski(String name, Consumer<ObjectNode> damage) throws Exception {
    ObjectNode graph = (ObjectNode) new ObjectMapper().readTree(ProfilesTest.resource("dnn-partitioning/bert24_inference.json").toFile());
    damage.accept(graph);
    return Files.writeString(dir.resolve(name + ".json"), graph.toString());
  }

  @Test
  void damagedTarnawskiGraphsAreRefusedNamingFileAndJsonPath() throws Exception {
    Path noId = damagedTarnawski("no-id", g -> ((ObjectNode) g.get("nodes").get(7)).remove("id"));
    assertThat(refusal(() -> TarnawskiLayerGraph.read(noId))).contains(noId.toString()).contains("$.nodes[7].id").contains("required");
    Path noCost = damagedTarnawski("no-cost", g -> ((ObjectNode) g.get("edges").get(3)).remove("cost"));
    assertThat(refusal(() -> TarnawskiLayerGraph.read(noCost))).contains("$.edges[3].cost");
    Path text = damagedTarnawski("text-latency", g -> ((ObjectNode) g.get("nodes").get(2)).put("fpgaLatency", "0.7"));
    assertThat(refusal(() -> TarnawskiLayerGraph.read(text))).contains("$.nodes[2].fpgaLatency = \"0.7\"").contains("number");
    Path fraction = damagedTarnawski("fraction-devices", g -> g.put("maxFPGAs", 2.5));
    assertThat(refusal(() -> TarnawskiLayerGraph.read(fraction))).contains("$.maxFPGAs = 2.5").contains("integer");
  }

  @Test
  void damagedPipeDreamProfilesAreRefusedNamingFileLineAndField() throws Exception {
    List<String> lines = Files.readAllLines(ProfilesTest.resource("pipedream/image_classification_vgg16.graph.txt"));
    int target = 4; // a node line of the real profile
    assertThat(lines.get(target)).contains("forward_compute_time=");
    String damaged = lines.get(target).replaceFirst("forward_compute_time=[0-9.]+", "forward_compute_time=-");
    Path file = dir.resolve("vgg16-dash.graph.txt");
    Files.write(file, replaced(lines, target, damaged));
    assertThat(refusal(() -> PipeDreamProfile.read(file)))
        .contains(file.toString()).contains("line " + (target + 1) + " forward_compute_time = -").contains("not a number");
    Path list = dir.resolve("vgg16-list.graph.txt");
    Files.write(list, replaced(lines, target, lines.get(target).replaceFirst("activation_size=[0-9.]+", "activation_size=[1.0; x]")));
    assertThat(refusal(() -> PipeDreamProfile.read(list))).contains("line " + (target + 1));
  }

  private static List<String> replaced(List<String> lines, int index, String line) {
    List<String> copy = new java.util.ArrayList<>(lines);
    copy.set(index, line);
    return copy;
  }
}
