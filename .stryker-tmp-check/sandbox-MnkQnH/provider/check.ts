/**
 * Validation of a resource's inputs before anything runs: pure, no API calls. Each failure names
 * the kind, the field and the rule (`Monitor.intervalSeconds: must be at least 10 (got 5)`), one
 * per field, and never shows the value of a secret field.
 */
// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { z } from "zod";
import { type AnyResourceDefinition, providerInputs } from "../schema/define.js";
import { isInternal } from "./fields.js";
import { type OpenDomain, metadataOf, undeclaredKeys, unknownFieldRule, unwrap } from "../schema/rules.js";
import { describeResource } from "./failures.js";
import { isRecord } from "./naming.js";
export interface CheckFailure {
  property: string;
  reason: string;
}
export interface CheckResult {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
  /**
   * What check lets through but may be a mistake, one sentence each naming the resource and the
   * field: a key this package does not know inside an open object (sent as written), a setting
   * assumed to belong to another variant. Never a value.
   */
  warnings: string[];
}

/**
 * The value Pulumi passes for inputs not known yet during a preview (`pulumi.runtime.unknownValue`
 * on the provider side). Fields holding it are validated once their values are known.
 */
export const UNKNOWN = stryMutAct_9fa48("0") ? "" : (stryCov_9fa48("0"), "04da6b54-80e4-46f7-96ec-b56ff0331ba9");
export function containsUnknown(value: unknown): boolean {
  if (stryMutAct_9fa48("1")) {
    {}
  } else {
    stryCov_9fa48("1");
    if (stryMutAct_9fa48("4") ? value !== UNKNOWN : stryMutAct_9fa48("3") ? false : stryMutAct_9fa48("2") ? true : (stryCov_9fa48("2", "3", "4"), value === UNKNOWN)) return stryMutAct_9fa48("5") ? false : (stryCov_9fa48("5"), true);
    if (stryMutAct_9fa48("7") ? false : stryMutAct_9fa48("6") ? true : (stryCov_9fa48("6", "7"), Array.isArray(value))) return stryMutAct_9fa48("8") ? value.every(containsUnknown) : (stryCov_9fa48("8"), value.some(containsUnknown));
    if (stryMutAct_9fa48("10") ? false : stryMutAct_9fa48("9") ? true : (stryCov_9fa48("9", "10"), isRecord(value))) return stryMutAct_9fa48("11") ? Object.values(value).every(containsUnknown) : (stryCov_9fa48("11"), Object.values(value).some(containsUnknown));
    return stryMutAct_9fa48("12") ? true : (stryCov_9fa48("12"), false);
  }
}

/**
 * Open domains the stack closed, with the values it allows (`monitoring:offeredRegions`): without
 * one, any value passes and the server decides.
 */
export type ClosedDomains = Partial<Record<OpenDomain, readonly string[]>>;

/**
 * Validates `news` against the kind's schema. On success `inputs` holds the parsed values (with
 * the defaults the schema fills in) plus the provider's internal properties; on failure it holds
 * `news` unchanged.
 */
export function check(definition: AnyResourceDefinition, news: Record<string, unknown>, closed: ClosedDomains = {}): CheckResult {
  if (stryMutAct_9fa48("13")) {
    {}
  } else {
    stryCov_9fa48("13");
    const shape: Record<string, z.ZodType> = stryMutAct_9fa48("14") ? {} : (stryCov_9fa48("14"), {
      ...definition.inputs.shape,
      ...providerInputs.shape
    });
    const secrets = new Set<string>(definition.secrets);
    const failures = new Map<string, string>();
    const fail = (path: string, rule: string): void => {
      if (stryMutAct_9fa48("15")) {
        {}
      } else {
        stryCov_9fa48("15");
        const field = topLevelField(path);
        if (stryMutAct_9fa48("18") ? false : stryMutAct_9fa48("17") ? true : stryMutAct_9fa48("16") ? [...failures.keys()].some(failed => topLevelField(failed) === field) : (stryCov_9fa48("16", "17", "18"), !(stryMutAct_9fa48("19") ? [...failures.keys()].every(failed => topLevelField(failed) === field) : (stryCov_9fa48("19"), (stryMutAct_9fa48("20") ? [] : (stryCov_9fa48("20"), [...failures.keys()])).some(stryMutAct_9fa48("21") ? () => undefined : (stryCov_9fa48("21"), failed => stryMutAct_9fa48("24") ? topLevelField(failed) !== field : stryMutAct_9fa48("23") ? false : stryMutAct_9fa48("22") ? true : (stryCov_9fa48("22", "23", "24"), topLevelField(failed) === field))))))) if (stryMutAct_9fa48("25")) {
          ;
        } else {
          stryCov_9fa48("25");
          failures.set(path, rule);
        }
      }
    };
    const parsed: Record<string, unknown> = {};
    let allKnown = stryMutAct_9fa48("26") ? false : (stryCov_9fa48("26"), true);
    for (const key of Object.keys(news)) {
      if (stryMutAct_9fa48("27")) {
        {}
      } else {
        stryCov_9fa48("27");
        if (stryMutAct_9fa48("30") ? !isInternal(key) || !(key in shape) : stryMutAct_9fa48("29") ? false : stryMutAct_9fa48("28") ? true : (stryCov_9fa48("28", "29", "30"), (stryMutAct_9fa48("31") ? isInternal(key) : (stryCov_9fa48("31"), !isInternal(key))) && (stryMutAct_9fa48("32") ? key in shape : (stryCov_9fa48("32"), !(key in shape))))) if (stryMutAct_9fa48("33")) {
          ;
        } else {
          stryCov_9fa48("33");
          fail(key, unknownFieldRule(key, Object.keys(shape)));
        }
      }
    }
    for (const [field, schema] of Object.entries(shape)) {
      if (stryMutAct_9fa48("34")) {
        {}
      } else {
        stryCov_9fa48("34");
        const value = news[field];
        if (stryMutAct_9fa48("36") ? false : stryMutAct_9fa48("35") ? true : (stryCov_9fa48("35", "36"), containsUnknown(value))) {
          if (stryMutAct_9fa48("37")) {
            {}
          } else {
            stryCov_9fa48("37");
            allKnown = stryMutAct_9fa48("38") ? true : (stryCov_9fa48("38"), false);
            parsed[field] = value;
            continue;
          }
        }
        const result = schema.safeParse(value, stryMutAct_9fa48("39") ? {} : (stryCov_9fa48("39"), {
          reportInput: stryMutAct_9fa48("40") ? false : (stryCov_9fa48("40"), true),
          error: genericRule
        }));
        if (stryMutAct_9fa48("42") ? false : stryMutAct_9fa48("41") ? true : (stryCov_9fa48("41", "42"), result.success)) {
          if (stryMutAct_9fa48("43")) {
            {}
          } else {
            stryCov_9fa48("43");
            if (stryMutAct_9fa48("46") ? result.data === undefined : stryMutAct_9fa48("45") ? false : stryMutAct_9fa48("44") ? true : (stryCov_9fa48("44", "45", "46"), result.data !== undefined)) parsed[field] = result.data;
            for (const [path, rule] of closedDomainIssues(schema, result.data, field, closed)) if (stryMutAct_9fa48("47")) {
              ;
            } else {
              stryCov_9fa48("47");
              fail(path, rule);
            }
            continue;
          }
        }
        for (const issue of result.error.issues) {
          if (stryMutAct_9fa48("48")) {
            {}
          } else {
            stryCov_9fa48("48");
            for (const [path, rule] of describeIssue(field, issue, secrets.has(field))) if (stryMutAct_9fa48("49")) {
              ;
            } else {
              stryCov_9fa48("49");
              fail(path, rule);
            }
          }
        }
      }
    }
    // Cross-field rules read other fields' values, so they run once every field passed its own rules
    // and every value is known (during a preview some may not be yet; check runs again before the update).
    if (stryMutAct_9fa48("52") ? failures.size === 0 || allKnown : stryMutAct_9fa48("51") ? false : stryMutAct_9fa48("50") ? true : (stryCov_9fa48("50", "51", "52"), (stryMutAct_9fa48("54") ? failures.size !== 0 : stryMutAct_9fa48("53") ? true : (stryCov_9fa48("53", "54"), failures.size === 0)) && allKnown)) stryMutAct_9fa48("55") ? definition.refine(parsed, fail) : (stryCov_9fa48("55"), definition.refine?.(parsed, fail));
    const warnings: string[] = stryMutAct_9fa48("56") ? ["Stryker was here"] : (stryCov_9fa48("56"), []);
    if (stryMutAct_9fa48("59") ? failures.size !== 0 : stryMutAct_9fa48("58") ? false : stryMutAct_9fa48("57") ? true : (stryCov_9fa48("57", "58", "59"), failures.size === 0)) {
      if (stryMutAct_9fa48("60")) {
        {}
      } else {
        stryCov_9fa48("60");
        const resource = describeResource(definition, news);
        for (const [field, schema] of Object.entries(definition.inputs.shape as Record<string, z.ZodType>)) {
          if (stryMutAct_9fa48("61")) {
            {}
          } else {
            stryCov_9fa48("61");
            for (const path of undeclaredKeys(schema, parsed[field], field)) {
              if (stryMutAct_9fa48("62")) {
                {}
              } else {
                stryCov_9fa48("62");
                warnings.push(stryMutAct_9fa48("64") ? `` : (stryCov_9fa48("64"), `${resource}: ${path} is not a key this package knows; it is sent as written and the server decides (check the spelling)`));
              }
            }
          }
        }
        if (stryMutAct_9fa48("66") ? false : stryMutAct_9fa48("65") ? true : (stryCov_9fa48("65", "66"), allKnown)) {
          if (stryMutAct_9fa48("67")) {
            {}
          } else {
            stryCov_9fa48("67");
            stryMutAct_9fa48("68") ? definition.assumedRules(parsed, (path, message, found) => {
              if (found === "misplaced") warnings.push(`${resource}: ${path} ${message} as far as this package knows; it is sent as written and the server decides`);
            }) : (stryCov_9fa48("68"), definition.assumedRules?.(parsed, (path, message, found) => {
              if (stryMutAct_9fa48("69")) {
                {}
              } else {
                stryCov_9fa48("69");
                if (stryMutAct_9fa48("72") ? found !== "misplaced" : stryMutAct_9fa48("71") ? false : stryMutAct_9fa48("70") ? true : (stryCov_9fa48("70", "71", "72"), found === (stryMutAct_9fa48("73") ? "" : (stryCov_9fa48("73"), "misplaced")))) warnings.push(stryMutAct_9fa48("75") ? `` : (stryCov_9fa48("75"), `${resource}: ${path} ${message} as far as this package knows; it is sent as written and the server decides`));
              }
            }));
          }
        }
      }
    }
    if (stryMutAct_9fa48("79") ? failures.size <= 0 : stryMutAct_9fa48("78") ? failures.size >= 0 : stryMutAct_9fa48("77") ? false : stryMutAct_9fa48("76") ? true : (stryCov_9fa48("76", "77", "78", "79"), failures.size > 0)) {
      if (stryMutAct_9fa48("80")) {
        {}
      } else {
        stryCov_9fa48("80");
        return stryMutAct_9fa48("81") ? {} : (stryCov_9fa48("81"), {
          inputs: news,
          failures: (stryMutAct_9fa48("82") ? [] : (stryCov_9fa48("82"), [...failures])).map(stryMutAct_9fa48("83") ? () => undefined : (stryCov_9fa48("83"), ([path, rule]) => stryMutAct_9fa48("84") ? {} : (stryCov_9fa48("84"), {
            // The engine prints "property P value V has a problem" with the value in plaintext, so a
            // secret field's failure names its field only in the reason.
            property: secrets.has(topLevelField(path)) ? stryMutAct_9fa48("85") ? "Stryker was here!" : (stryCov_9fa48("85"), "") : path,
            reason: stryMutAct_9fa48("86") ? `` : (stryCov_9fa48("86"), `${definition.kind}.${path}: ${rule}`)
          }))),
          warnings: stryMutAct_9fa48("87") ? ["Stryker was here"] : (stryCov_9fa48("87"), [])
        });
      }
    }
    const internals = Object.fromEntries(stryMutAct_9fa48("88") ? Object.entries(news) : (stryCov_9fa48("88"), Object.entries(news).filter(stryMutAct_9fa48("89") ? () => undefined : (stryCov_9fa48("89"), ([key]) => isInternal(key)))));
    return stryMutAct_9fa48("90") ? {} : (stryCov_9fa48("90"), {
      inputs: stryMutAct_9fa48("91") ? {} : (stryCov_9fa48("91"), {
        ...internals,
        ...parsed
      }),
      failures: stryMutAct_9fa48("92") ? ["Stryker was here"] : (stryCov_9fa48("92"), []),
      warnings
    });
  }
}

/** Values of closed domains at any depth of `value` that the stack does not allow. */
function closedDomainIssues(schema: z.ZodType, value: unknown, path: string, closed: ClosedDomains): [string, string][] {
  if (stryMutAct_9fa48("93")) {
    {}
  } else {
    stryCov_9fa48("93");
    if (stryMutAct_9fa48("96") ? value === undefined && value === null : stryMutAct_9fa48("95") ? false : stryMutAct_9fa48("94") ? true : (stryCov_9fa48("94", "95", "96"), (stryMutAct_9fa48("98") ? value !== undefined : stryMutAct_9fa48("97") ? false : (stryCov_9fa48("97", "98"), value === undefined)) || (stryMutAct_9fa48("100") ? value !== null : stryMutAct_9fa48("99") ? false : (stryCov_9fa48("99", "100"), value === null)))) return stryMutAct_9fa48("101") ? ["Stryker was here"] : (stryCov_9fa48("101"), []);
    const domain = metadataOf(schema)["domain"] as OpenDomain | undefined;
    const allowed = (stryMutAct_9fa48("104") ? domain !== undefined : stryMutAct_9fa48("103") ? false : stryMutAct_9fa48("102") ? true : (stryCov_9fa48("102", "103", "104"), domain === undefined)) ? undefined : closed[domain];
    if (stryMutAct_9fa48("107") ? domain !== undefined || allowed !== undefined : stryMutAct_9fa48("106") ? false : stryMutAct_9fa48("105") ? true : (stryCov_9fa48("105", "106", "107"), (stryMutAct_9fa48("109") ? domain === undefined : stryMutAct_9fa48("108") ? true : (stryCov_9fa48("108", "109"), domain !== undefined)) && (stryMutAct_9fa48("111") ? allowed === undefined : stryMutAct_9fa48("110") ? true : (stryCov_9fa48("110", "111"), allowed !== undefined)))) {
      if (stryMutAct_9fa48("112")) {
        {}
      } else {
        stryCov_9fa48("112");
        return allowed.includes(value as string) ? stryMutAct_9fa48("113") ? ["Stryker was here"] : (stryCov_9fa48("113"), []) : stryMutAct_9fa48("114") ? [] : (stryCov_9fa48("114"), [stryMutAct_9fa48("115") ? [] : (stryCov_9fa48("115"), [path, stryMutAct_9fa48("116") ? `` : (stryCov_9fa48("116"), `must be one of ${CLOSING_CONFIG[domain]} (${allowed.join(stryMutAct_9fa48("117") ? "" : (stryCov_9fa48("117"), ", "))}) (got ${JSON.stringify(value)})`)])]);
      }
    }
    const inner = unwrap(schema);
    if (stryMutAct_9fa48("120") ? inner instanceof z.ZodArray || Array.isArray(value) : stryMutAct_9fa48("119") ? false : stryMutAct_9fa48("118") ? true : (stryCov_9fa48("118", "119", "120"), inner instanceof z.ZodArray && Array.isArray(value))) {
      if (stryMutAct_9fa48("121")) {
        {}
      } else {
        stryCov_9fa48("121");
        return value.flatMap(stryMutAct_9fa48("122") ? () => undefined : (stryCov_9fa48("122"), (item, index) => closedDomainIssues(inner.element as z.ZodType, item, stryMutAct_9fa48("123") ? `` : (stryCov_9fa48("123"), `${path}[${index}]`), closed)));
      }
    }
    if (stryMutAct_9fa48("126") ? inner instanceof z.ZodObject || isRecord(value) : stryMutAct_9fa48("125") ? false : stryMutAct_9fa48("124") ? true : (stryCov_9fa48("124", "125", "126"), inner instanceof z.ZodObject && isRecord(value))) {
      if (stryMutAct_9fa48("127")) {
        {}
      } else {
        stryCov_9fa48("127");
        return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(stryMutAct_9fa48("128") ? () => undefined : (stryCov_9fa48("128"), ([name, fieldSchema]) => closedDomainIssues(fieldSchema, value[name], stryMutAct_9fa48("129") ? `` : (stryCov_9fa48("129"), `${path}.${name}`), closed)));
      }
    }
    return stryMutAct_9fa48("130") ? ["Stryker was here"] : (stryCov_9fa48("130"), []);
  }
}
const CLOSING_CONFIG: Record<OpenDomain, string> = stryMutAct_9fa48("131") ? {} : (stryCov_9fa48("131"), {
  region: stryMutAct_9fa48("132") ? "" : (stryCov_9fa48("132"), "the regions in monitoring:offeredRegions")
});

/** `steps[0].delayMinutes` → `steps`. */
function topLevelField(path: string): string {
  if (stryMutAct_9fa48("133")) {
    {}
  } else {
    stryCov_9fa48("133");
    return path.split(/[.[]/, 1)[0] as string;
  }
}
function formatPath(field: string, path: readonly PropertyKey[]): string {
  if (stryMutAct_9fa48("134")) {
    {}
  } else {
    stryCov_9fa48("134");
    return path.reduce<string>(stryMutAct_9fa48("135") ? () => undefined : (stryCov_9fa48("135"), (text, segment) => (stryMutAct_9fa48("138") ? typeof segment !== "number" : stryMutAct_9fa48("137") ? false : stryMutAct_9fa48("136") ? true : (stryCov_9fa48("136", "137", "138"), typeof segment === (stryMutAct_9fa48("139") ? "" : (stryCov_9fa48("139"), "number")))) ? stryMutAct_9fa48("140") ? `` : (stryCov_9fa48("140"), `${text}[${segment}]`) : stryMutAct_9fa48("141") ? `` : (stryCov_9fa48("141"), `${text}.${String(segment)}`)), field);
  }
}

/** One `[path, rule]` per problem of a zod issue; unknown keys are one problem each. */
function describeIssue(field: string, issue: z.core.$ZodIssue, secret: boolean): [string, string][] {
  if (stryMutAct_9fa48("142")) {
    {}
  } else {
    stryCov_9fa48("142");
    const path = formatPath(field, issue.path);
    if (stryMutAct_9fa48("145") ? issue.code !== "unrecognized_keys" : stryMutAct_9fa48("144") ? false : stryMutAct_9fa48("143") ? true : (stryCov_9fa48("143", "144", "145"), issue.code === (stryMutAct_9fa48("146") ? "" : (stryCov_9fa48("146"), "unrecognized_keys")))) {
      if (stryMutAct_9fa48("147")) {
        {}
      } else {
        stryCov_9fa48("147");
        return issue.keys.map(stryMutAct_9fa48("148") ? () => undefined : (stryCov_9fa48("148"), key => stryMutAct_9fa48("149") ? [] : (stryCov_9fa48("149"), [stryMutAct_9fa48("150") ? `` : (stryCov_9fa48("150"), `${path}.${key}`), stryMutAct_9fa48("151") ? "" : (stryCov_9fa48("151"), "unknown field")])));
      }
    }
    const input = (issue as {
      input?: unknown;
    }).input;
    if (stryMutAct_9fa48("154") ? input !== undefined : stryMutAct_9fa48("153") ? false : stryMutAct_9fa48("152") ? true : (stryCov_9fa48("152", "153", "154"), input === undefined)) return stryMutAct_9fa48("155") ? [] : (stryCov_9fa48("155"), [stryMutAct_9fa48("156") ? [] : (stryCov_9fa48("156"), [path, stryMutAct_9fa48("157") ? "" : (stryCov_9fa48("157"), "is required")])]);
    const shown = stryMutAct_9fa48("160") ? !secret && input !== undefined || typeof input !== "object" || input === null : stryMutAct_9fa48("159") ? false : stryMutAct_9fa48("158") ? true : (stryCov_9fa48("158", "159", "160"), (stryMutAct_9fa48("162") ? !secret || input !== undefined : stryMutAct_9fa48("161") ? true : (stryCov_9fa48("161", "162"), (stryMutAct_9fa48("163") ? secret : (stryCov_9fa48("163"), !secret)) && (stryMutAct_9fa48("165") ? input === undefined : stryMutAct_9fa48("164") ? true : (stryCov_9fa48("164", "165"), input !== undefined)))) && (stryMutAct_9fa48("167") ? typeof input !== "object" && input === null : stryMutAct_9fa48("166") ? true : (stryCov_9fa48("166", "167"), (stryMutAct_9fa48("169") ? typeof input === "object" : stryMutAct_9fa48("168") ? false : (stryCov_9fa48("168", "169"), typeof input !== (stryMutAct_9fa48("170") ? "" : (stryCov_9fa48("170"), "object")))) || (stryMutAct_9fa48("172") ? input !== null : stryMutAct_9fa48("171") ? false : (stryCov_9fa48("171", "172"), input === null)))));
    return stryMutAct_9fa48("173") ? [] : (stryCov_9fa48("173"), [stryMutAct_9fa48("174") ? [] : (stryCov_9fa48("174"), [path, shown ? stryMutAct_9fa48("175") ? `` : (stryCov_9fa48("175"), `${issue.message} (got ${JSON.stringify(input)})`) : issue.message])]);
  }
}

/** Rules for the checks whose schema does not phrase its own message. */
function genericRule(issue: z.core.$ZodRawIssue): string | undefined {
  if (stryMutAct_9fa48("176")) {
    {}
  } else {
    stryCov_9fa48("176");
    switch (issue.code) {
      case stryMutAct_9fa48("178") ? "" : (stryCov_9fa48("178"), "invalid_type"):
        if (stryMutAct_9fa48("177")) {} else {
          stryCov_9fa48("177");
          return stryMutAct_9fa48("179") ? `` : (stryCov_9fa48("179"), `must be ${stryMutAct_9fa48("180") ? TYPE_NAMES[issue.expected] && issue.expected : (stryCov_9fa48("180"), TYPE_NAMES[issue.expected] ?? issue.expected)}`);
        }
      case stryMutAct_9fa48("181") ? "" : (stryCov_9fa48("181"), "too_small"):
      case stryMutAct_9fa48("183") ? "" : (stryCov_9fa48("183"), "too_big"):
        if (stryMutAct_9fa48("182")) {} else {
          stryCov_9fa48("182");
          {
            if (stryMutAct_9fa48("184")) {
              {}
            } else {
              stryCov_9fa48("184");
              const bound = (stryMutAct_9fa48("187") ? issue.code !== "too_small" : stryMutAct_9fa48("186") ? false : stryMutAct_9fa48("185") ? true : (stryCov_9fa48("185", "186", "187"), issue.code === (stryMutAct_9fa48("188") ? "" : (stryCov_9fa48("188"), "too_small")))) ? issue.minimum : issue.maximum;
              const word = (stryMutAct_9fa48("191") ? issue.code !== "too_small" : stryMutAct_9fa48("190") ? false : stryMutAct_9fa48("189") ? true : (stryCov_9fa48("189", "190", "191"), issue.code === (stryMutAct_9fa48("192") ? "" : (stryCov_9fa48("192"), "too_small")))) ? stryMutAct_9fa48("193") ? "" : (stryCov_9fa48("193"), "least") : stryMutAct_9fa48("194") ? "" : (stryCov_9fa48("194"), "most");
              if (stryMutAct_9fa48("197") ? issue.origin !== "string" : stryMutAct_9fa48("196") ? false : stryMutAct_9fa48("195") ? true : (stryCov_9fa48("195", "196", "197"), issue.origin === (stryMutAct_9fa48("198") ? "" : (stryCov_9fa48("198"), "string")))) return stryMutAct_9fa48("199") ? `` : (stryCov_9fa48("199"), `must be at ${word} ${bound} characters long`);
              if (stryMutAct_9fa48("202") ? issue.origin === "array" && issue.origin === "set" : stryMutAct_9fa48("201") ? false : stryMutAct_9fa48("200") ? true : (stryCov_9fa48("200", "201", "202"), (stryMutAct_9fa48("204") ? issue.origin !== "array" : stryMutAct_9fa48("203") ? false : (stryCov_9fa48("203", "204"), issue.origin === (stryMutAct_9fa48("205") ? "" : (stryCov_9fa48("205"), "array")))) || (stryMutAct_9fa48("207") ? issue.origin !== "set" : stryMutAct_9fa48("206") ? false : (stryCov_9fa48("206", "207"), issue.origin === (stryMutAct_9fa48("208") ? "" : (stryCov_9fa48("208"), "set")))))) return stryMutAct_9fa48("209") ? `` : (stryCov_9fa48("209"), `must have at ${word} ${bound} items`);
              return stryMutAct_9fa48("210") ? `` : (stryCov_9fa48("210"), `must be at ${word} ${bound}`);
            }
          }
        }
      case stryMutAct_9fa48("212") ? "" : (stryCov_9fa48("212"), "invalid_value"):
        if (stryMutAct_9fa48("211")) {} else {
          stryCov_9fa48("211");
          return stryMutAct_9fa48("213") ? `` : (stryCov_9fa48("213"), `must be one of ${issue.values.map(stryMutAct_9fa48("214") ? () => undefined : (stryCov_9fa48("214"), value => JSON.stringify(value))).join(stryMutAct_9fa48("215") ? "" : (stryCov_9fa48("215"), ", "))}`);
        }
      case stryMutAct_9fa48("217") ? "" : (stryCov_9fa48("217"), "invalid_format"):
        if (stryMutAct_9fa48("216")) {} else {
          stryCov_9fa48("216");
          return stryMutAct_9fa48("218") ? `` : (stryCov_9fa48("218"), `must be a valid ${issue.format}`);
        }
      default:
        if (stryMutAct_9fa48("219")) {} else {
          stryCov_9fa48("219");
          return undefined;
        }
    }
  }
}
const TYPE_NAMES: Record<string, string> = stryMutAct_9fa48("220") ? {} : (stryCov_9fa48("220"), {
  string: stryMutAct_9fa48("221") ? "" : (stryCov_9fa48("221"), "a string"),
  number: stryMutAct_9fa48("222") ? "" : (stryCov_9fa48("222"), "a number"),
  int: stryMutAct_9fa48("223") ? "" : (stryCov_9fa48("223"), "a whole number"),
  boolean: stryMutAct_9fa48("224") ? "" : (stryCov_9fa48("224"), "true or false"),
  array: stryMutAct_9fa48("225") ? "" : (stryCov_9fa48("225"), "a list"),
  object: stryMutAct_9fa48("226") ? "" : (stryCov_9fa48("226"), "an object")
});