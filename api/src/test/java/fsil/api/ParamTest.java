package fsil.api;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParamTest {
    enum Tree { STICK_BREAK, RANDOM, KD_TREE_2 }

    enum Unrelated { RANDOM }

    @Test
    void integersRoundTripAndKeepToInclusiveBounds() {
        Random rnd = new Random(1);
        for (int i = 0; i < 1000; i++) {
            int a = rnd.nextInt() / 2;
            int b = a + rnd.nextInt(Integer.MAX_VALUE / 2);
            int v = a + (int) ((b - (long) a) * rnd.nextDouble());
            Param<Integer> p = Param.integer("k", v, a, b, "doc");
            assertEquals(v, p.parse(p.format(v)));
            assertEquals(a, p.parse(Integer.toString(a)), "min is inside");
            assertEquals(b, p.parse(Integer.toString(b)), "max is inside");
            assertThrows(InvalidParameterException.class, () -> p.parse(Long.toString(a - 1L)));
            assertThrows(InvalidParameterException.class, () -> p.parse(Long.toString(b + 1L)));
            assertThrows(InvalidParameterException.class, () -> p.validate(b + 1L), "a Long is not an integer");
        }
        Param<Integer> all = Param.integer("all", 0, Integer.MIN_VALUE, Integer.MAX_VALUE, "doc");
        assertEquals(Integer.MIN_VALUE, all.parse(all.format(Integer.MIN_VALUE)));
        assertEquals(Integer.MAX_VALUE, all.parse(" " + Integer.MAX_VALUE + "\t"), "surrounding blanks are trimmed");
        for (String bad : List.of("", " ", "2.5", "1e3", "0x10", "2147483648", "seven", "1_000")) {
            InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> all.parse(bad), bad);
            assertTrue(e.getMessage().contains("parameter 'all' got '" + bad + "'"), e.getMessage());
        }
        assertEquals("integer in [0, 100]", Param.integer("q", 5, 0, 100, "doc").domain());
    }

    @Test
    void realsRoundTripExactlyAndRejectNaNAndValuesOutsideTheBounds() {
        Random rnd = new Random(2);
        Param<Double> any = Param.real("x", 0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, "doc");
        for (int i = 0; i < 5000; i++) {
            double v = Double.longBitsToDouble(rnd.nextLong());
            if (!Double.isFinite(v)) {
                continue;
            }
            assertEquals(v, any.parse(any.format(v)), "bits " + Double.doubleToRawLongBits(v));
            double lo = Math.min(v, rnd.nextGaussian() * 1e3);
            double hi = Math.max(v, rnd.nextGaussian() * 1e3);
            Param<Double> p = Param.real("x", v, lo, hi, "doc");
            assertEquals(lo, p.parse(p.format(lo)), "min is inside");
            assertEquals(hi, p.parse(p.format(hi)), "max is inside");
            assertThrows(InvalidParameterException.class, () -> p.validate(Math.nextDown(lo)));
            assertThrows(InvalidParameterException.class, () -> p.validate(Math.nextUp(hi)));
            assertThrows(InvalidParameterException.class, () -> p.parse("Infinity"));
            assertThrows(InvalidParameterException.class, () -> p.parse("-Infinity"));
        }
        assertEquals(-0.0, any.parse(any.format(-0.0)));
        assertThrows(InvalidParameterException.class, () -> any.parse("NaN"), "NaN is in no domain");
        assertThrows(InvalidParameterException.class, () -> any.validate(Double.NaN));
        assertThrows(InvalidParameterException.class, () -> Param.real("x", Double.NaN, 0, 1, "doc"),
                "the default is validated too");
        Param<Double> lambda = Param.real("lambda", 0.01, 0, Double.POSITIVE_INFINITY, "noise");
        assertEquals("real in [0, inf]", lambda.domain());
        assertEquals("real in [-inf, 0.5]", Param.real("t", 0, Double.NEGATIVE_INFINITY, 0.5, "d").domain());
        assertEquals(3.0, lambda.validate(3), "an integer is widened");
        assertEquals(0.25, lambda.validate(0.25f), "a float is widened");
        assertEquals(1e300, lambda.parse("1e300"));
        assertThrows(InvalidParameterException.class, () -> lambda.parse("-1e-300"));
        assertThrows(InvalidParameterException.class, () -> lambda.parse("0.1.2"));
        assertThrows(InvalidParameterException.class, () -> lambda.validate("0.1"), "text is for parse");
    }

    @Test
    void booleansAreTrueOrFalseInAnyCase() {
        Param<Boolean> b = Param.bool("flag", false, "doc");
        for (boolean v : new boolean[]{true, false}) {
            assertEquals(v, b.parse(b.format(v)));
        }
        assertEquals(true, b.parse("TRUE"));
        assertEquals(false, b.parse(" False "));
        for (String bad : List.of("yes", "no", "1", "0", "", "t")) {
            assertThrows(InvalidParameterException.class, () -> b.parse(bad), bad);
        }
        assertThrows(InvalidParameterException.class, () -> b.validate("true"));
        assertEquals("true or false", b.domain());
    }

    @Test
    void textIsKeptAsGiven() {
        Param<String> path = Param.text("path", "", "a file");
        Random rnd = new Random(3);
        for (int i = 0; i < 1000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = rnd.nextInt(12); n > 0; n--) {
                sb.appendCodePoint(rnd.nextInt(4) == 0 ? ' ' : 0x21 + rnd.nextInt(0x3000));
            }
            String v = sb.toString();
            assertEquals(v, path.parse(path.format(v)), "not trimmed, not changed");
        }
        assertEquals("", path.parse(""), "the empty text is a value");
        assertEquals("text", path.domain());
        assertThrows(InvalidParameterException.class, () -> path.parse(null));
        assertThrows(InvalidParameterException.class, () -> path.validate(5));
    }

    @Test
    void enumConstantsAreWrittenInLowerCaseWithDashes() {
        assertEquals("stick-break", Param.text(Tree.STICK_BREAK));
        assertEquals("kd-tree-2", Param.text(Tree.KD_TREE_2));
        Param<Tree> tree = Param.option("tree", Tree.STICK_BREAK, "tree prior");
        assertEquals(List.of("stick-break", "random", "kd-tree-2"), tree.choices(), "declaration order");
        for (Tree t : Tree.values()) {
            assertEquals(t, tree.parse(tree.format(t)));
            assertEquals(t, tree.validate(Param.text(t)), "a notebook may give the text");
            assertEquals(t, tree.validate(t));
        }
        assertEquals(Tree.STICK_BREAK, tree.parse(" stick-break "));
        for (String bad : List.of("STICK_BREAK", "stick_break", "Stick-Break", "stickbreak", "")) {
            InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> tree.parse(bad), bad);
            assertTrue(e.getMessage().contains("one of [stick-break, random, kd-tree-2]"), e.getMessage());
        }
        assertThrows(InvalidParameterException.class, () -> tree.validate(Unrelated.RANDOM));
        assertEquals(Tree.class, tree.javaType());
        assertEquals(Param.Type.CHOICE, tree.type());
        assertEquals("tree (one of [stick-break, random, kd-tree-2], default stick-break)", tree.toString());
    }

    @Test
    void namesStartWithALetterAndUseLettersDigitsAndDotDashUnderscore() {
        for (String ok : List.of("q", "Q", "lambda", "tree.depth", "max-iter", "n_2")) {
            assertEquals(ok, Param.integer(ok, 0, 0, 1, "d").name());
        }
        for (String bad : new String[]{null, "", "1q", "-q", ".q", "a b", "a,b", "a=b", "a]", "a[", "é"}) {
            assertThrows(IllegalArgumentException.class, () -> Param.bool(bad, true, "d"), bad);
        }
        assertThrows(InvalidParameterException.class, () -> Param.integer("q", 11, 0, 10, "d"),
                "a default outside the domain");
        assertThrows(NullPointerException.class, () -> Param.text("t", "x", null), "a parameter is documented");
    }

    @Test
    void aMissingValueSaysWhatIsExpected() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> Param.integer("q", 1, 0, 10, "d").parse(null));
        assertEquals("parameter 'q' needs a value (integer in [0, 10])", e.getMessage());
    }
}
