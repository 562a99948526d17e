package fsil.api;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AbstractPluginTest {
    static final Param<Integer> K = Param.integer("k", 3, 1, 10, "neighbours");
    static final Param<Double> ALPHA = Param.real("alpha", 0.5, 0, 1, "smoothing");
    static final Param<Boolean> FAST = Param.bool("fast", false, "a shortcut");

    /** A plugin of its own kind, as a protocol or a dataset would be written. */
    interface Greeter extends Plugin {
        @Override
        default String kind() {
            return "greeter";
        }
    }

    static final class Hello extends AbstractPlugin implements Greeter {
        Hello(String id, String description, List<Param<?>> parameters) {
            super(id, description, parameters);
        }
    }

    static final class Toy extends AbstractMethod {
        Toy(String id, String description, String reference, Set<Capability> capabilities,
            List<Param<?>> parameters) {
            super(id, description, reference, capabilities, parameters);
        }

        @Override
        public Learner learner(Params params, Background background) {
            throw new UnsupportedOperationException();
        }
    }

    static Toy toy(String id) {
        return new Toy(id, "a toy", "", EnumSet.of(Capability.INDUCTIVE_FEWSHOT), List.of());
    }

    @Test
    void aPluginReturnsWhatItWasGivenInOrder() {
        Hello h = new Hello("hello", "says hello", List.of(K, ALPHA, FAST));
        assertEquals("hello", h.id());
        assertEquals("says hello", h.description());
        assertEquals(List.of(K, ALPHA, FAST), h.parameters());
        assertEquals("greeter", h.kind(), "the kind's interface still names it");
        assertEquals("greeter hello", h.defaults().methodId());
        assertEquals(Map.of("k", "3", "alpha", "0.5", "fast", "false"), h.defaults().asText());
        assertEquals(7, h.params(Map.of("k", "7")).get(K));
        assertEquals(List.of(), new Hello("quiet", "takes nothing", List.of()).parameters());
    }

    @Test
    void theParametersAreACopyThatCannotChange() {
        List<Param<?>> given = new ArrayList<>(List.of(K));
        Hello h = new Hello("hello", "says hello", given);
        given.add(ALPHA);
        assertEquals(List.of(K), h.parameters());
        assertThrows(UnsupportedOperationException.class, () -> h.parameters().add(FAST));
    }

    @Test
    void aBadIdIsRejectedByTheRegistryRule() {
        for (String bad : new String[]{null, "", "Hello", "1abc", "-a", "a b", "a.b", "a[x]"}) {
            FsilException e = assertThrows(FsilException.class, () -> new Hello(bad, "says hello", List.of()), bad);
            assertTrue(e.getMessage().contains("greeter id '" + bad + "' of " + Hello.class.getName()), e.getMessage());
            assertTrue(e.getMessage().contains("lower-case letters, digits, '-' and '_', starting with a letter"),
                    e.getMessage());
        }
        for (String ok : List.of("a", "soft-kmeans", "episode_acc", "m2")) {
            assertEquals(ok, new Hello(ok, "fine", List.of()).id());
        }
        // the same rule as registration, so what is made can be registered
        assertEquals(List.of("hello"), new Registry<Greeter>("greeter", Greeter::id)
                .register(new Hello("hello", "says hello", List.of())).ids());
    }

    @Test
    void swappedIdAndDescriptionAreRejected() {
        FsilException e = assertThrows(FsilException.class, () -> new Hello("says hello", "hello", List.of()));
        assertTrue(e.getMessage().contains("id 'says hello'"), e.getMessage());
        assertThrows(FsilException.class, () -> new Toy("A toy method", "toy", "", EnumSet.of(
                Capability.INDUCTIVE_FEWSHOT), List.of()));
    }

    @Test
    void aMissingBlankOrMultiLineDescriptionIsRejected() {
        for (String bad : new String[]{null, "", "   ", "two\nlines", "two\r\nlines"}) {
            FsilException e = assertThrows(FsilException.class, () -> new Hello("hello", bad, List.of()),
                    String.valueOf(bad));
            assertTrue(e.getMessage().contains("greeter hello (" + Hello.class.getName() + ") needs a description"),
                    e.getMessage());
        }
    }

    @Test
    void duplicateParameterNamesAreRejected() {
        Param<Integer> otherK = Param.integer("k", 5, 1, 10, "another k");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new Hello("hello", "says hello", List.of(K, ALPHA, otherK)));
        assertEquals("greeter hello declares parameter 'k' twice", e.getMessage());
        IllegalStateException m = assertThrows(IllegalStateException.class, () -> new Toy("toy", "a toy", "",
                EnumSet.of(Capability.INDUCTIVE_FEWSHOT), List.of(K, K)));
        assertEquals("method toy declares parameter 'k' twice", m.getMessage());
        assertThrows(NullPointerException.class, () -> new Hello("hello", "says hello", null));
    }

    @Test
    void aMethodReturnsWhatItWasGiven() {
        Toy t = new Toy("toy", "a toy", "Someone et al., 2024",
                EnumSet.of(Capability.FEWSHOT_CLASS_INCREMENTAL, Capability.INDUCTIVE_FEWSHOT), List.of(ALPHA, K));
        assertEquals("toy", t.id());
        assertEquals("a toy", t.description());
        assertEquals("Someone et al., 2024", t.reference());
        assertEquals(List.of(Capability.INDUCTIVE_FEWSHOT, Capability.FEWSHOT_CLASS_INCREMENTAL),
                List.copyOf(t.capabilities()), "in the enum's order, as EnumSet.of gave them");
        assertEquals(List.of(ALPHA, K), t.parameters());
        assertEquals("method", t.kind());
        assertEquals("toy", t.defaults().methodId(), "a method's params are named by its id alone, as before");
        assertEquals(0.25, t.params(Map.of("alpha", "0.25")).get(ALPHA));
        assertEquals("", toy("baseline").reference());
    }

    @Test
    void aMethodsCapabilitiesAreACopyThatCannotChange() {
        EnumSet<Capability> given = EnumSet.of(Capability.CLASS_INCREMENTAL);
        Toy t = new Toy("toy", "a toy", "", given, List.of());
        given.add(Capability.TRANSDUCTIVE_FEWSHOT);
        assertEquals(Set.of(Capability.CLASS_INCREMENTAL), t.capabilities());
        assertThrows(UnsupportedOperationException.class, () -> t.capabilities().add(Capability.INDUCTIVE_FEWSHOT));
        assertEquals(Set.of(Capability.CLASS_INCREMENTAL), new Toy("toy", "a toy", "",
                Set.of(Capability.CLASS_INCREMENTAL), List.of()).capabilities(), "any set will do");
    }

    @Test
    void aMethodNeedsAReferenceAndACapability() {
        FsilException r = assertThrows(FsilException.class, () -> new Toy("toy", "a toy", null,
                EnumSet.of(Capability.INDUCTIVE_FEWSHOT), List.of()));
        assertTrue(r.getMessage().contains("needs a reference"), r.getMessage());
        for (Set<Capability> none : new ArrayList<Set<Capability>>(java.util.Arrays.asList(null,
                EnumSet.noneOf(Capability.class), Set.of()))) {
            FsilException c = assertThrows(FsilException.class, () -> new Toy("toy", "a toy", "", none, List.of()));
            assertTrue(c.getMessage().contains("at least one capability"), c.getMessage());
        }
        FsilException id = assertThrows(FsilException.class, () -> toy("Toy"));
        assertTrue(id.getMessage().contains("method id 'Toy'"), id.getMessage());
    }

    @Test
    void aPluginWrittenAgainstTheInterfaceStillWorks() {
        Method direct = new Method() {
            public String id() {
                return "direct";
            }

            public String description() {
                return "implements the interface itself";
            }

            public Set<Capability> capabilities() {
                return EnumSet.of(Capability.INDUCTIVE_FEWSHOT);
            }

            public List<Param<?>> parameters() {
                return List.of(K);
            }

            public Learner learner(Params params, Background background) {
                throw new UnsupportedOperationException();
            }
        };
        Registry<Method> methods = new Registry<>("method", Method::id).register(direct).register(toy("toy"));
        assertEquals(List.of("direct", "toy"), methods.ids());
        assertSame(direct, methods.get("direct"));
        assertEquals("", direct.reference());
        assertEquals(3, direct.defaults().get(K));
    }
}
