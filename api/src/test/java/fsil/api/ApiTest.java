package fsil.api;

import com.google.inject.Guice;
import fsil.api.plugin.MethodRegistry;
import fsil.api.plugin.MethodsModule;
import fsil.api.testkit.MethodConformance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApiTest {

    @TestFactory
    Stream<DynamicTest> toyMethodPassesConformance() {
        return MethodConformance.of(new ToyNearestMeanMethod()).tests();
    }

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

    /** The kit must be able to fail: a method that writes into its inputs or ignores the seed is caught. */
    @Test
    void kitCatchesMisbehavingMethods() {
        long mutateFailures = MethodConformance.of(new ToyNearestMeanMethod()).withParams(Map.of("mutate", "true"))
                .tests().filter(t -> fails(t)).count();
        assertTrue(mutateFailures >= 1, "mutation of inputs must be detected");
        long noisyFailures = MethodConformance.of(new ToyNearestMeanMethod()).withParams(Map.of("noisy", "true"))
                .tests().filter(t -> t.getDisplayName().contains("deterministic")).filter(ApiTest::fails).count();
        assertEquals(2, noisyFailures, "ignoring the seed must be detected for episodes and streams");
    }

    private static boolean fails(DynamicTest t) {
        try {
            t.getExecutable().execute();
            return false;
        } catch (AssertionFailedError e) {
            return true;
        } catch (Throwable e) {
            return true;
        }
    }

    @Test
    void paramsRejectUnknownNamesListingValidOnes() {
        Method m = new ToyNearestMeanMethod();
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> m.params(Map.of("scal", "2")));
        assertTrue(e.getMessage().contains("scale"), e.getMessage());
        assertThrows(InvalidParameterException.class, () -> m.params(Map.of("scale", "-1")));
        assertThrows(InvalidParameterException.class, () -> m.params(Map.of("scale", "abc")));
        assertEquals(2.5, m.params(Map.of("scale", "2.5")).get(ToyNearestMeanMethod.SCALE));
        assertEquals(Map.of("scale", "2.5"), m.params(Map.of("scale", "2.5")).changedFromDefaults());
    }

    @Test
    void paramKindsParseAndValidate() {
        Param<Integer> q = Param.integer("q", 20, 0, 1000, "rank");
        assertEquals(7, q.parse(" 7 "));
        assertThrows(InvalidParameterException.class, () -> q.parse("1001"));
        assertThrows(InvalidParameterException.class, () -> q.parse("2.5"));
        Param<String> c = Param.choice("solver", "auto", "eigen solver", "auto", "full", "randomized");
        assertEquals("full", c.parse("full"));
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> c.parse("fast"));
        assertTrue(e.getMessage().contains("randomized"), e.getMessage());
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
    void guiceWiringAndProgrammaticRegistration() {
        Method toy = new ToyNearestMeanMethod();
        MethodRegistry r = Guice.createInjector(new MethodsModule(toy)).getInstance(MethodRegistry.class);
        assertSame(toy, r.get("toy-ncm"));
        FsilException e = assertThrows(FsilException.class, () -> r.get("nope"));
        assertTrue(e.getMessage().contains("toy-ncm"), e.getMessage());
        Method other = new ToyNearestMeanMethod() {
            @Override
            public String id() {
                return "toy-two";
            }
        };
        r.register(other);
        assertSame(other, r.get("toy-two"));
        assertThrows(FsilException.class, () -> r.register(new ToyNearestMeanMethod()));
        assertThrows(FsilException.class, () -> new MethodsModule(false, toy,
                new ToyNearestMeanMethod() { }));
    }
}
