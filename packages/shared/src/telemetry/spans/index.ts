// Span helpers every service's code shares; lighter than '@authz/shared/telemetry' (the SDK).
export { serviceContext, serviceNameIn } from './service-context.js';
export { endWith, startClientSpan, tracedServiceName } from './child-span.js';
export { outsideTraces } from './background.js';
