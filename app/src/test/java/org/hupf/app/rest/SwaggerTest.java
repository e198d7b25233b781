package org.hupf.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.core.rest.HupfWebResource;
import org.junit.Test;

import javax.ws.rs.DELETE;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import java.io.File;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The swagger that onos-maven-plugin generates from the resources' annotations and javadoc
 * (target/swagger.json, packaged as apidoc/swagger.json) describes every endpoint the resources serve,
 * and nothing else.
 */
public class SwaggerTest {

    private static final Map<Class<? extends Annotation>, String> METHODS =
            Map.of(GET.class, "get", POST.class, "post", PUT.class, "put", DELETE.class, "delete");

    private static TreeSet<String> annotatedEndpoints(Class<?> resource) {
        TreeSet<String> out = new TreeSet<>();
        String base = resource.getAnnotation(Path.class).value();
        for (Method m : resource.getDeclaredMethods()) {
            Path p = m.getAnnotation(Path.class);
            for (Map.Entry<Class<? extends Annotation>, String> verb : METHODS.entrySet()) {
                if (m.isAnnotationPresent(verb.getKey())) {
                    String path = (base + "/" + (p == null ? "" : p.value())).replaceAll("/+", "/");
                    out.add(verb.getValue() + " " + (path.startsWith("/") ? path : "/" + path));
                }
            }
        }
        return out;
    }

    @Test
    public void everyAnnotatedEndpointIsInTheGeneratedSwagger() throws Exception {
        JsonNode swagger = new ObjectMapper().readTree(new File("target/swagger.json"));
        assertEquals("/onos/hupf", swagger.get("basePath").asText());
        TreeSet<String> described = new TreeSet<>();
        swagger.get("paths").fields().forEachRemaining(
                p -> p.getValue().fieldNames().forEachRemaining(verb -> described.add(verb + " " + p.getKey())));
        TreeSet<String> served = new TreeSet<>();
        for (Class<?> resource : List.of(HupfWebResource.class)) {
            served.addAll(annotatedEndpoints(resource));
        }
        assertTrue("no JAX-RS endpoints found", served.size() >= 13);
        assertEquals(served, described);
        swagger.get("paths").forEach(p -> p.forEach(
                op -> assertTrue(op + " has no summary", !op.path("summary").asText().isEmpty())));
    }
}
