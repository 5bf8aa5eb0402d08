import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as targets from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';

/**
 * The platform's own names (contexts `apiDomain`, `streamDomain`, `hostedZoneId` + `hostedZoneName`). With a
 * hosted zone, certificates are validated in it and the stack writes the alias records; without one, the
 * certificates wait (the deployment too) until you create their validation CNAMEs wherever your DNS lives,
 * and you point the names yourself (docs/deploy.md, "Domains").
 */
export interface DomainsProps {
  /** The API's name, e.g. api.example.com; PUBLIC_BASE_URL becomes `https://<apiDomain>`. */
  readonly apiDomain?: string;
  /** The streaming service's name, e.g. stream.example.com (Twilio connects to `wss://<streamDomain>`). */
  readonly streamDomain?: string;
  /** A Route 53 public hosted zone holding both names, given by id and name (no lookup: synth stays offline). */
  readonly hostedZone?: { readonly hostedZoneId: string; readonly zoneName: string };
  /** An existing certificate for streamDomain (context `certificateArn`): used instead of a new one. */
  readonly streamCertificateArn?: string;
}

/** Certificates, the API's custom domain and the DNS records of {@link DomainsProps}. */
export class PlatformDomains extends Construct {
  readonly zone?: route53.IHostedZone;
  readonly apiCertificate?: acm.ICertificate;
  readonly streamCertificate?: acm.ICertificate;
  readonly apiDomainName?: apigw.DomainName;
  private readonly props: DomainsProps;

  constructor(scope: Construct, id: string, props: DomainsProps) {
    super(scope, id);
    this.props = props;
    if (props.hostedZone) {
      this.zone = route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', props.hostedZone);
    }
    const validation = acm.CertificateValidation.fromDns(this.zone);
    if (props.apiDomain) {
      this.apiCertificate = new acm.Certificate(this, 'ApiCertificate', { domainName: props.apiDomain, validation });
      this.apiDomainName = new apigw.DomainName(this, 'ApiDomain', { domainName: props.apiDomain, certificate: this.apiCertificate });
    }
    if (props.streamDomain) {
      this.streamCertificate = props.streamCertificateArn
        ? acm.Certificate.fromCertificateArn(this, 'StreamCertificate', props.streamCertificateArn)
        : new acm.Certificate(this, 'StreamCertificate', { domainName: props.streamDomain, validation });
    }
  }

  /** `https://<apiDomain>` when one is set. */
  get apiOrigin(): string | undefined {
    return this.props.apiDomain ? `https://${this.props.apiDomain}` : undefined;
  }

  /** The streaming service's TLS settings when a stream domain is set. */
  get streamingTls(): { certificateArn: string; domain: string } | undefined {
    return this.props.streamDomain && this.streamCertificate
      ? { certificateArn: this.streamCertificate.certificateArn, domain: this.props.streamDomain }
      : undefined;
  }

  /** Maps the API's default stage on its custom domain and, with a zone, writes the alias record. */
  mapApi(api: apigw.HttpApi): void {
    if (!this.apiDomainName) return;
    new apigw.ApiMapping(this, 'ApiMapping', { api, domainName: this.apiDomainName, stage: api.defaultStage! });
    if (!this.zone) return;
    new route53.ARecord(this, 'ApiRecord', {
      zone: this.zone,
      recordName: this.props.apiDomain!,
      target: route53.RecordTarget.fromAlias(
        new targets.ApiGatewayv2DomainProperties(this.apiDomainName.regionalDomainName, this.apiDomainName.regionalHostedZoneId),
      ),
    });
  }

  /** With a zone, the stream domain's alias record to the ALB. */
  pointStream(loadBalancer: elbv2.IApplicationLoadBalancer): void {
    if (!this.zone || !this.props.streamDomain) return;
    new route53.ARecord(this, 'StreamRecord', {
      zone: this.zone,
      recordName: this.props.streamDomain,
      target: route53.RecordTarget.fromAlias(new targets.LoadBalancerTarget(loadBalancer)),
    });
  }
}
