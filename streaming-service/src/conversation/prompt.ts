// The templates live with the domain: the voicemail message (filled by the AMD webhook) uses them too.
export { contactVariables, fillTemplate } from '../../../lib/domain/template.js';
