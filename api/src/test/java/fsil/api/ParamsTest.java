package fsil.api;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParamsTest {
    enum Solver { AUTO, RANDOMIZED_KRYLOV }

    static final Param<Integer> ZETA = Param.integer("zeta", 3, 1, 10, "d");
    static final Param<Double> ALPHA = Param.real("alpha", 0.5, 0, 1, "d");
    static final Param<Solver> SOLVER = Param.option("solver", Solver.AUTO, "d");
    static final Param<Boolean> MID = Param.bool("mid", true, "d");
    static final Param<String> PATH = Param.text("path", "", "d");
    static final List<Param<?>> DECLARED = List.of(ZETA, ALPHA, SOLVER, MID, PATH);

    @Test
    void defaultsFillEveryParameterAndTextKeepsDeclarationOrder() {
        Params p = Params.defaults("toy", DECLARED);
        assertEquals(3, p.get(ZETA));
        assertEquals(0.5, p.get(ALPHA));
        assertEquals(Solver.AUTO, p.get(SOLVER));
        assertEquals(true, p.get(MID));
        assertEquals("", p.get(PATH));
        assertEquals(List.of("zeta", "alpha", "solver", "mid", "path"), List.copyOf(p.asText().keySet()));
        assertEquals(List.of("3", "0.5", "auto", "true", ""), List.copyOf(p.asText().values()));
        assertEquals(Map.of(), p.changedFromDefaults());
        assertEquals("toy", p.methodId());
        assertEquals(DECLARED, p.declared());
        assertEquals("auto", p.text("solver"));
        assertEquals(Solver.AUTO, p.get("solver"));
    }

    @Test
    void withTextAndWithMakeChangedCopies() {
        Params p = Params.defaults("toy", DECLARED);
        Params q = p.withText("solver", "randomized-krylov").with("zeta", 7).with("alpha", 1).with("path", "a b");
        assertEquals(Solver.AUTO, p.get(SOLVER), "the original is unchanged");
        assertEquals(Solver.RANDOMIZED_KRYLOV, q.get(SOLVER));
        assertEquals(7, q.get(ZETA));
        assertEquals(1.0, q.get(ALPHA));
        assertEquals("a b", q.get(PATH));
        assertEquals(Solver.RANDOMIZED_KRYLOV, p.with("solver", "randomized-krylov").get(SOLVER));
        assertEquals(Solver.RANDOMIZED_KRYLOV, p.with("solver", Solver.RANDOMIZED_KRYLOV).get(SOLVER));
        Map<String, String> changed = q.changedFromDefaults();
        assertEquals(List.of("zeta", "alpha", "solver", "path"), List.copyOf(changed.keySet()), "declaration order");
        assertEquals("randomized-krylov", changed.get("solver"));
        assertEquals(Map.of(), q.with("zeta", 3).with("alpha", 0.5).with("solver", "auto").with("path", "")
                .changedFromDefaults(), "set back to the defaults");
        assertThrows(InvalidParameterException.class, () -> p.with("zeta", 11));
        assertThrows(InvalidParameterException.class, () -> p.withText("zeta", "x"));
        assertThrows(InvalidParameterException.class, () -> p.with("mid", "true"));
    }

    @Test
    void unknownNamesNameTheOwnerAndSuggestTheClosest() {
        Params p = Params.defaults("toy", DECLARED);
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> p.withText("alpah", "1"));
        assertTrue(e.getMessage().startsWith("method 'toy' has no parameter 'alpah' (did you mean 'alpha'?). "
                + "Valid parameters: zeta (integer in [1, 10], default 3), alpha (real in [0, 1], default 0.5)"),
                e.getMessage());
        InvalidParameterException kind = assertThrows(InvalidParameterException.class,
                () -> Params.resolve("backbone pretrained-mlp", DECLARED, Map.of("epochz", "1")));
        assertTrue(kind.getMessage().startsWith("backbone pretrained-mlp has no parameter 'epochz'. Valid"),
                "an owner with its kind is written as is; nothing close: " + kind.getMessage());
        InvalidParameterException none = assertThrows(InvalidParameterException.class,
                () -> Params.defaults("ncm", List.of()).with("k", 1));
        assertEquals("method 'ncm' has no parameter 'k'. It takes no parameters.", none.getMessage());
        assertThrows(InvalidParameterException.class, () -> p.get("nope"));
        assertThrows(InvalidParameterException.class, () -> p.text("nope"));
        assertThrows(IllegalArgumentException.class, () -> p.get(Param.integer("other", 1, 0, 2, "d")));
        assertThrows(IllegalStateException.class, () -> Params.defaults("toy", List.of(ZETA, ZETA)));
    }

    @Test
    void pluginsResolveUnderTheirKindAndId() {
        Plugin backbone = new Plugin() {
            @Override
            public String id() {
                return "mlp";
            }

            @Override
            public String description() {
                return "a backbone";
            }

            @Override
            public List<Param<?>> parameters() {
                return DECLARED;
            }

            @Override
            public String kind() {
                return "backbone";
            }
        };
        assertEquals(Params.defaults("backbone mlp", DECLARED), backbone.defaults());
        assertEquals(7, backbone.params(Map.of("zeta", "7")).get(ZETA));
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> backbone.params(Map.of("zet", "7")));
        assertTrue(e.getMessage().startsWith("backbone mlp has no parameter 'zet' (did you mean 'zeta'?)"),
                e.getMessage());
    }

    @Test
    void equalityIsOwnerAndValues() {
        Params a = Params.resolve("toy", DECLARED, Map.of("zeta", "4", "alpha", "0.25"));
        Map<String, String> reversed = new LinkedHashMap<>();
        reversed.put("alpha", "0.250");
        reversed.put("zeta", "04");
        Params b = Params.resolve("toy", DECLARED, reversed);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, Params.resolve("other", DECLARED, Map.of("zeta", "4", "alpha", "0.25")));
        assertNotEquals(a, a.with("mid", false));
        assertNotEquals(a, null);
        assertEquals("toy{zeta=4, alpha=0.25, solver=auto, mid=true, path=}", a.toString());
    }

    @Test
    void randomValuesSurviveTheirTextForm() {
        Random rnd = new Random(4);
        for (int i = 0; i < 2000; i++) {
            Params p = Params.defaults("toy", DECLARED).with("zeta", 1 + rnd.nextInt(10))
                    .with("alpha", rnd.nextDouble()).with("solver", Solver.values()[rnd.nextInt(2)])
                    .with("mid", rnd.nextBoolean()).with("path", Long.toString(rnd.nextLong(), 36));
            assertEquals(p, Params.resolve("toy", DECLARED, p.asText()));
            assertEquals(p, Params.resolve("toy", DECLARED, p.changedFromDefaults()));
        }
    }
}
