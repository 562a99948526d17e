package fsil.api;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApiTest {

    @Test
    void concatKeepsRowsAndLabelsInOrderAndChecksDimensions() {
        LabeledData a = new LabeledData(FeatureMatrix.of(new double[][]{{1, 2}, {3, 4}}), new int[]{5, 6});
        LabeledData b = new LabeledData(FeatureMatrix.of(new double[][]{{7, 8}}), new int[]{9});
        LabeledData ab = LabeledData.concat(List.of(a, b));
        assertEquals(3, ab.size());
        assertEquals(List.of(5, 6, 9), java.util.Arrays.stream(ab.labels()).boxed().toList());
        assertEquals(List.of(1f, 2f, 3f, 4f, 7f, 8f), java.util.stream.IntStream.range(0, 6)
                .mapToObj(i -> ab.features().rawData()[i]).toList());
        assertSame(a, LabeledData.concat(List.of(a)));
        LabeledData c = new LabeledData(FeatureMatrix.of(new double[][]{{1, 2, 3}}), new int[]{0});
        assertThrows(InvalidDataException.class, () -> LabeledData.concat(List.of(a, c)));
    }

    static final Param<Double> SCALE = Param.real("scale", 1.0, 0.0, 1e6, "softmax scale");

    @Test
    void paramsRejectUnknownNamesListingValidOnes() {
        List<Param<?>> declared = List.of(SCALE);
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> Params.resolve("toy", declared, Map.of("scal", "2")));
        assertTrue(e.getMessage().contains("scale"), e.getMessage());
        assertThrows(InvalidParameterException.class, () -> Params.resolve("toy", declared, Map.of("scale", "-1")));
        assertThrows(InvalidParameterException.class, () -> Params.resolve("toy", declared, Map.of("scale", "abc")));
        assertEquals(2.5, Params.resolve("toy", declared, Map.of("scale", "2.5")).get(SCALE));
        assertEquals(Map.of("scale", "2.5"), Params.resolve("toy", declared, Map.of("scale", "2.5")).changedFromDefaults());
    }

    enum Solver { AUTO, FULL, RANDOMIZED_KRYLOV }

    @Test
    void paramKindsParseAndValidate() {
        Param<Integer> q = Param.integer("q", 20, 0, 1000, "rank");
        assertEquals(7, q.parse(" 7 "));
        assertThrows(InvalidParameterException.class, () -> q.parse("1001"));
        assertThrows(InvalidParameterException.class, () -> q.parse("2.5"));
        Param<Solver> c = Param.option("solver", Solver.AUTO, "eigen solver");
        assertEquals(Solver.FULL, c.parse("full"));
        assertEquals(Solver.RANDOMIZED_KRYLOV, c.parse("randomized-krylov"), "constants are written lower-case with '-'");
        assertEquals(Solver.FULL, c.validate("full"), "a notebook may give a choice as text");
        assertEquals("randomized-krylov", c.format(Solver.RANDOMIZED_KRYLOV));
        assertEquals(List.of("auto", "full", "randomized-krylov"), c.choices());
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> c.parse("fast"));
        assertTrue(e.getMessage().contains("randomized-krylov"), e.getMessage());
        assertEquals("solver (one of [auto, full, randomized-krylov], default auto)", c.toString());
        Param<Boolean> b = Param.bool("logdet", false, "use log-det");
        assertEquals(true, b.parse("TRUE"));
        assertThrows(InvalidParameterException.class, () -> b.parse("yes"));
        Param<Double> r = Param.real("lambda", 0.01, 0, Double.POSITIVE_INFINITY, "noise");
        assertEquals(3.0, r.validate(3));
        assertThrows(InvalidParameterException.class, () -> r.parse("NaN"));
        assertThrows(IllegalArgumentException.class, () -> Param.integer("bad name", 1, 0, 2, "x"));
    }

    @Test
    void predictionValidatesRows() {
        Prediction p = Prediction.of(new int[]{2, 5}, new double[]{0.25, 0.75, 0.5, 0.5});
        assertEquals(2, p.size());
        assertEquals(5, p.labels()[0]);
        assertEquals(2, p.labels()[1], "ties go to the smaller id");
        assertEquals(0.75, p.probabilityOfClass(0, 5));
        assertEquals(0.0, p.probabilityOfClass(0, 4));
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(new int[]{2, 5}, new double[]{0.3, 0.3}));
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(new int[]{5, 2}, new double[]{0.5, 0.5}));
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(new int[]{2, 5}, new double[]{Double.NaN, 1}));
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(new int[]{2, 5}, new double[]{1.5, -0.5}));
    }

    @Test
    void dataModelValidates() {
        assertThrows(InvalidDataException.class, () -> FeatureMatrix.wrap(2, 3, new float[5]));
        FeatureMatrix m = FeatureMatrix.of(new double[][]{{1, 2}, {3, Double.NaN}});
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> m.requireFinite("query features"));
        assertTrue(e.getMessage().contains("row 1, column 1"), e.getMessage());
        assertThrows(InvalidDataException.class, () -> new LabeledData(m, new int[]{1}));
        assertThrows(InvalidDataException.class, () -> new LabeledData(m, new int[]{1, -1}));
        LabeledData d = new LabeledData(FeatureMatrix.of(new double[][]{{1}, {2}, {3}}), new int[]{9, 4, 9});
        assertEquals(List.of(4, 9), java.util.Arrays.stream(d.classes()).boxed().toList());
        assertEquals(2.0f, d.select(new int[]{1}).features().get(0, 0));
    }

    @Test
    void errorMessagesAreOneLine() {
        FsilException e = new FsilException("unknown method 'ab\ncd\r' \u0007here\tand there");
        assertEquals("unknown method 'ab\\ncd\\r' \\u0007here\tand there", e.getMessage());
        assertEquals("plain", new FsilException("plain").getMessage());
    }
}
