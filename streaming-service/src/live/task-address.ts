import * as z from 'zod';

/**
 * This task's internal address on ECS, from the task metadata endpoint v4 (docs.aws.amazon.com/AmazonECS/
 * latest/developerguide/task-metadata-endpoint-v4-fargate.html): `${ECS_CONTAINER_METADATA_URI_V4}` answers
 * the container's metadata, whose `Networks[].IPv4Addresses` hold the task's private IP in `awsvpc` mode
 * (the only mode Fargate has). Other tasks reach this one there, on the container port.
 */
const ContainerMetadata = z.object({ Networks: z.array(z.object({ IPv4Addresses: z.array(z.string()).optional() })).min(1) });

/** The metadata endpoint is link-local and answers at once; 2 s is ample. */
const METADATA_TIMEOUT_MS = 2_000;

export async function ecsTaskUrl(metadataUri: string, port: number): Promise<string | undefined> {
  const res = await fetch(metadataUri, { signal: AbortSignal.timeout(METADATA_TIMEOUT_MS) });
  if (!res.ok) return undefined;
  const parsed = ContainerMetadata.safeParse(await res.json());
  const ip = parsed.success ? parsed.data.Networks.flatMap((n) => n.IPv4Addresses ?? [])[0] : undefined;
  return ip ? `http://${ip}:${port}` : undefined;
}
