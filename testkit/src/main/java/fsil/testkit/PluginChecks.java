package fsil.testkit;

import fsil.api.InvalidParameterException;
import fsil.api.Param;
import fsil.api.Plugin;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checks every plugin kind shares: its id, description and typed parameters. */
final class PluginChecks {
    private PluginChecks() {
    }

    static void metadata(Plugin p) {
        assertTrue(p.id() != null && p.id().matches("[a-z][a-z0-9_-]*"), "id must be lower-case: " + p.id());
        assertFalse(p.description() == null || p.description().isBlank(), p.id() + ": description is empty");
        for (Param<?> param : p.parameters()) {
            assertFalse(param.doc().isBlank(), p.id() + ": parameter " + param.name() + " has no documentation");
            // the default's text form parses back to the default
            assertEquals(param.defaultValue(), param.parse(param.format(param.defaultValue())),
                    p.id() + ": parameter " + param.name() + "'s default does not round-trip as text");
        }
        assertEquals(p.parameters().size(), p.defaults().asText().size(), p.id() + ": parameter names repeat");
    }

    static void unknownParameterRejected(Plugin p) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> p.params(Map.of("no_such_parameter_xyz", "1")));
        for (Param<?> param : p.parameters()) {
            assertTrue(e.getMessage().contains(param.name()), "the message should list the valid parameters: "
                    + e.getMessage());
        }
    }
}
