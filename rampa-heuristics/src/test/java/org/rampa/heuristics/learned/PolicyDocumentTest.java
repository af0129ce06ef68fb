package org.rampa.heuristics.learned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.json.JsonInputException;

class PolicyDocumentTest {

  @Test
  void aPolicyReadFromADocumentWritesTheSameDocumentAndScoresAlike() {
    CandidatePolicy trained = CandidatePolicy.initialised(List.of("x", "y"), new int[] {5, 3}, 11);
    String json = PolicyDocument.of(trained, "test, seed 11").write();
    CandidatePolicy loaded = PolicyDocument.read(json).policy();
    assertThat(PolicyDocument.of(loaded, "test, seed 11").write()).isEqualTo(json);
    assertThat(loaded.featureNames()).containsExactly("x", "y");
    assertThat(loaded.network().hidden()).containsExactly(5, 3);
    double[] x = {0.3, 0.7};
    // single-precision storage: scores agree to float accuracy
    assertThat(loaded.network().score(x)).isCloseTo(trained.network().score(x), org.assertj.core.data.Offset.offset(1e-5));
  }

  @Test
  void aDocumentOfAnotherFormatOrShapeIsRefused() {
    String json = PolicyDocument.of(CandidatePolicy.initialised(List.of("x"), new int[] {2}, 1), "p").write();
    assertThatThrownBy(() -> PolicyDocument.read(json.replace(PolicyDocument.FORMAT, "other/9")))
        .isInstanceOf(JsonInputException.class).hasMessageContaining("format = other/9: must be \"rampa-candidate-policy/1\"");
    assertThatThrownBy(() -> PolicyDocument.read(json.replace("\"hidden\" : [ 2 ]", "\"hidden\" : [ 3 ]")).policy())
        .hasMessage("parameters.length = 7: must be 10 for 1 inputs and hidden layers [3]");
  }
}
