package com.example.fsil;

import fsil.api.Background;
import fsil.api.ClassTable;
import fsil.api.Episode;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Method;
import fsil.api.Prediction;
import fsil.testkit.MethodConformance;
import fsil.testkit.ToyNearestMeanMethod;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShrunkenCentroidTest {

    /** fsil's conformance kit: the contract every method must meet (with the defaults and with CL2N). */
    @TestFactory
    Stream<DynamicTest> conformance() {
        return Stream.concat(MethodConformance.of(new ShrunkenCentroid()).tests(),
                MethodConformance.of(new ShrunkenCentroid()).withParams(Map.of("preprocess", "cl2n", "shrink", "0"))
                        .tests());
    }

    /** fsil finds the method the way it finds every plugin: the services file in the jar. */
    @Test
    void listedInTheServicesFile() {
        assertTrue(ServiceLoader.load(Method.class).stream().anyMatch(p -> p.type() == ShrunkenCentroid.class),
                "src/main/resources/META-INF/services/fsil.api.Method must name com.example.fsil.ShrunkenCentroid");
    }

    private static Episode episode() {
        float[][] support = {{0, 0}, {0, 1}, {5, 5}, {5, 6}, {10, 0}, {10, 1}};
        int[] labels = {7, 7, 3, 3, 12, 12};
        float[][] queries = {{0.5f, 0.2f}, {5.2f, 5.9f}, {9, 0}, {4, 3}};
        return new Episode(new LabeledData(FeatureMatrix.of(support), labels), FeatureMatrix.of(queries), 3, 2, false);
    }

    /** Without shrinkage it is the nearest class mean: the same probabilities as the kit's toy nearest mean. */
    @Test
    void shrinkZeroIsTheNearestClassMean() {
        Episode e = episode();
        Background none = Background.none(2);
        Prediction mine = new ShrunkenCentroid().learner(new ShrunkenCentroid().params(Map.of("shrink", "0")), none)
                .solve(e, 1);
        Method toy = new ToyNearestMeanMethod();
        Prediction ncm = toy.learner(toy.defaults(), none).solve(e, 1);
        assertArrayEquals(new int[]{3, 7, 12}, mine.classes(), "columns: the support classes, sorted");
        assertArrayEquals(ncm.rawProbabilities(), mine.rawProbabilities(), 1e-12);
        assertArrayEquals(new int[]{7, 3, 12, 3}, mine.labels());
    }

    /**
     * A protocol without base classes gives an empty Background (isEmpty(): zero rows of the right dimension), with
     * base classes their features: CL2N uses their mean when there is one and still works without.
     */
    @Test
    void cl2nWithAndWithoutBaseClasses() {
        Episode e = episode();
        ShrunkenCentroid m = new ShrunkenCentroid();
        var params = m.params(Map.of("preprocess", "cl2n"));
        Background empty = new Background(LabeledData.empty(2), ClassTable.numbered(13), "example|none", 0,
                Optional.empty());
        assertTrue(empty.isEmpty());
        Prediction withoutBase = m.learner(params, empty).solve(e, 1);
        LabeledData base = new LabeledData(FeatureMatrix.of(new float[][]{{4, 2}, {6, 4}}), new int[]{0, 1});
        Prediction withBase = m.learner(params, new Background(base, ClassTable.numbered(13), "example|base", 0,
                Optional.empty())).solve(e, 1);
        assertEquals(4, withoutBase.size());
        assertEquals(4, withBase.size());
        assertEquals(12, withBase.labels()[2], "centred on the base mean (5, 3), the query (9, 0) points to class 12");
    }

    @Test
    void parametersAreDocumentedAndValidated() {
        ShrunkenCentroid m = new ShrunkenCentroid();
        assertEquals(List.of("shrink", "temperature", "preprocess"), m.parameters().stream().map(p -> p.name()).toList());
        assertEquals("cl2n", m.params(Map.of("preprocess", "cl2n")).text("preprocess"));
        assertEquals(ShrunkenCentroid.Preprocess.CL2N, m.params(Map.of("preprocess", "cl2n")).get(ShrunkenCentroid.PREPROCESS));
    }
}
